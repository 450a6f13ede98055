#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Check that every relative link and anchor in the project's markdown resolves.

Usage: check_links.py SOURCE-DIR [FILE.md ...]

Without files it checks every *.md of the source tree (build directories,
.git and the checker's own broken examples in tests/unit/data aside).  For each inline link [text](target) outside code:
  - a target with a scheme (https:, mailto:) is not fetched;
  - a path must name a file or directory, relative to the linking file;
  - an anchor (#name, or file.md#name) must be the anchor GitHub gives one
    of the target file's headings.
GitHub's anchors: the heading's text as rendered (code spans, emphasis and
link syntax removed), lower case, every character that is not a letter,
digit, '-', '_' or space dropped, spaces turned into '-'; a repeated anchor
gets -1, -2, ...  Each broken link is printed as FILE:LINE: message, and the
exit status is 1 if there was any.
"""
import os
import re
import sys

FENCE = re.compile(r'^\s*(```|~~~)')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
CODE_SPAN = re.compile(r'(`+)(.+?)\1', re.S)
# The "](target)" or "](target "title")" that ends a link, whatever lines
# its text took.
TARGET = re.compile(r'\]\(([^()\s]+)(?:\s+"[^"]*")?\)')
SKIP_DIRS = {'.git', 'Testing'}
SKIP_PATHS = {os.path.join('tests', 'unit', 'data')}


def rendered(text):
    """Heading text as GitHub renders it, before making the anchor."""
    text = CODE_SPAN.sub(lambda m: m.group(2), text)
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)
    text = re.sub(r'<[^>]+>', '', text)
    return text.replace('*', '')


def slug(text):
    s = rendered(text).strip().lower()
    s = ''.join(c for c in s if c.isalnum() or c in '-_ ')
    return s.replace(' ', '-')


def lines_outside_code(path):
    """(line number, line) for each line that is not in a fenced block."""
    with open(path, encoding='utf-8') as f:
        fenced = False
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield n, line.rstrip('\n')


_anchors = {}


def anchors(path):
    if path not in _anchors:
        seen = {}
        names = set()
        for _, line in lines_outside_code(path):
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            k = seen.get(base, 0)
            seen[base] = k + 1
            names.add(base if k == 0 else '%s-%d' % (base, k))
        _anchors[path] = names
    return _anchors[path]


def paragraphs(path):
    """(first line number, text) of each run of non-blank lines outside
    fences: a link's text, and a code span, may go on to the next line."""
    first, buf, last = None, [], None
    for n, line in lines_outside_code(path):
        if line.strip() and buf and n == last + 1:
            buf.append(line)
        else:
            if buf:
                yield first, '\n'.join(buf)
            first, buf = n, [line] if line.strip() else []
        last = n
    if buf:
        yield first, '\n'.join(buf)


def check(path, root):
    errors = []
    for first, text in paragraphs(path):
        text = CODE_SPAN.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text)
        for m in TARGET.finditer(text):
            target = m.group(1)
            n = first + text.count('\n', 0, m.start())
            if re.match(r'^[a-z][a-z0-9+.-]*:', target):
                continue
            file_part, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) \
                if file_part else path
            where = '%s:%d' % (os.path.relpath(path, root), n)
            if not os.path.exists(dest):
                errors.append('%s: link to %s: no such file or directory (%s)' %
                              (where, target, os.path.relpath(dest, root)))
                continue
            if not anchor:
                continue
            if not dest.endswith('.md') or os.path.isdir(dest):
                errors.append('%s: link to %s: an anchor in a file that is not markdown' %
                              (where, target))
            elif anchor not in anchors(dest):
                near = sorted(a for a in anchors(dest) if a[:6] == anchor[:6])
                errors.append('%s: link to %s: %s has no heading with the anchor #%s%s' %
                              (where, target, os.path.relpath(dest, root), anchor,
                               ' (did you mean #%s?)' % near[0] if near else ''))
    return errors


def markdown_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIP_DIRS and not d.startswith('build') and
                             os.path.normpath(os.path.join(rel, d)) not in SKIP_PATHS and
                             not os.path.exists(os.path.join(dirpath, d, 'CMakeCache.txt')))
        for name in sorted(filenames):
            if name.endswith('.md'):
                yield os.path.join(dirpath, name)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = os.path.abspath(sys.argv[1])
    files = [os.path.abspath(f) for f in sys.argv[2:]] or list(markdown_files(root))
    errors = []
    for path in files:
        errors += check(path, root)
    for e in errors:
        print(e)
    print('%d markdown files, %d broken links' % (len(files), len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
