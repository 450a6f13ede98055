#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The engine's folders depend downwards only (issue 37).

engine/README.md gives the order, in its one line of the form
    launch/ -> trace/ -> record/ -> decide/ -> contain/ -> engine/ (shared)
(the files directly in engine/ and engine/arch/ are the shared ground).
This checks the sources against it:

  1. an #include "..." of an engine file names a file of the same folder
     or of one below it;
  2. a function or variable declared in a folder's header is defined in a
     .c file of that folder (a declaration lives with its definition, so
     that rule 1 also keeps calls downwards);
  3. no .c file declares for itself a function or variable that another
     folder defines.

A call upwards needs a declaration of the higher folder's, which rules 2
and 3 keep in that folder, where rule 1 stops its include.  Text only:
comments and strings are taken out, no preprocessor is run.

    check_layers.py SOURCE_DIR     exit 0, or 1 with one line per fault
"""
import os
import re
import sys

ORDER_LINE = re.compile(r'^\s+((?:[a-z0-9_]+/ -> )+)engine/ \(shared\)\s*$')


def strip(text):
    """Comments, strings and character constants blanked, in one pass so
    that a quote in a comment or a comment marker in a string is taken
    for what it is; line breaks kept."""
    def blank(m):
        t = m.group(0)
        if t.startswith('/'):
            return '\n' * t.count('\n') or ' '
        return t[0] + t[0]
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'
                  r"'(?:\\.|[^'\\\n])*'", blank, text, flags=re.S)


def folders_of(readme):
    with open(readme, encoding='utf-8') as f:
        for line in f:
            m = ORDER_LINE.match(line)
            if m:
                names = [p[:-1] for p in m.group(1).split(' -> ') if p]
                return list(reversed(names))  # lowest first
    return None


def statements(text):
    """Top-level statements of stripped C text: (kind, text), kind 'body'
    for one that opened a brace at depth 0 (a definition, a struct, an
    initialiser), 'decl' for the rest.  Preprocessor lines left out."""
    lines, cont = [], False
    for l in text.split('\n'):
        pre = cont or l.lstrip().startswith('#')
        cont = pre and l.rstrip().endswith('\\')
        lines.append('' if pre else l)
    text = '\n'.join(lines)
    out, cur, depth, body = [], [], 0, False
    for ch in text:
        if ch == '{':
            if depth == 0:
                body = True
            depth += 1
            continue
        if ch == '}':
            depth -= 1
            head = ''.join(cur)
            if depth == 0 and '(' in head and '=' not in head:
                out.append(('body', ' '.join(''.join(cur).split())))
                cur, body = [], False
            continue
        if depth:
            continue
        if ch == ';':
            out.append(('body' if body else 'decl', ' '.join(''.join(cur).split())))
            cur, body = [], False
            continue
        cur.append(ch)
    return out


def name_of(stmt):
    """The name a statement declares or defines: a function's (before its
    first parenthesis), else a variable's (before [ or =)."""
    head = stmt.split('=')[0]
    if '(' in head:
        m = re.search(r'(\w+)\s*\(', head)
        return m.group(1) if m else None
    m = re.search(r'(\w+)\s*(\[[^\]]*\]\s*)*$', head.strip())
    return m.group(1) if m else None


def declared(text):
    """Names declared without a body: prototypes, extern variables."""
    names = set()
    for kind, s in statements(text):
        if kind != 'decl' or not s or s.startswith(('static ', 'typedef ')):
            continue
        if '(' in s or s.startswith('extern '):
            n = name_of(s)
            if n:
                names.add(n)
    return names


def defined(text):
    """Names a .c file defines with external linkage."""
    names = set()
    for kind, s in statements(strip(text)):
        if kind != 'body' or s.startswith(('static ', 'typedef ', 'extern ')):
            continue
        if re.match(r'(struct|union|enum)\s+\w+\s*$', s):
            continue
        n = name_of(s)
        if n:
            names.add(n)
    return names


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    top = argv[1]
    engine = os.path.join(top, 'engine')
    readme = os.path.join(engine, 'README.md')
    order = folders_of(readme)
    if not order:
        print(f'{readme}: no line giving the folders\' order '
              '("launch/ -> ... -> engine/ (shared)"); say it there')
        return 1
    rank = {'': 0, 'arch': 0}
    for i, name in enumerate(order):
        rank[name] = i + 1

    files = []
    for d, _, names in os.walk(engine):
        for n in sorted(names):
            if n.endswith(('.c', '.h')):
                files.append(os.path.relpath(os.path.join(d, n), engine))
    faults = []

    def folder(rel):
        return rel.split('/')[0] if '/' in rel else ''

    for rel in files:
        if folder(rel) not in rank:
            faults.append(f'engine/{rel}: folder {folder(rel)}/ is not in '
                          'engine/README.md\'s order of folders')
    text = {}
    for rel in files:
        with open(os.path.join(engine, rel), encoding='utf-8') as f:
            text[rel] = f.read()

    # 1. includes downwards
    for rel in files:
        for no, line in enumerate(text[rel].split('\n'), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            here = os.path.dirname(rel)
            cand = os.path.normpath(os.path.join(here, m.group(1)))
            if cand not in text:
                cand = os.path.normpath(m.group(1))
                if cand not in text:
                    continue        # not an engine file
            a, b = folder(rel), folder(cand)
            if rank.get(b, 0) > rank.get(a, 0):
                faults.append(f'engine/{rel}:{no}: includes engine/{cand}: '
                              f'{b}/ is above {a or "engine"}/ (engine/README.md); '
                              'move what it needs down to its home')

    # where each name is defined
    home = {}
    for rel in files:
        if rel.endswith('.c'):
            for name in defined(text[rel]):
                home.setdefault(name, set()).add(folder(rel))

    def same_group(a, b):
        return rank.get(a, 0) == rank.get(b, 0)

    # 2. a header's declarations are its folder's; 3. a .c declares none
    # of another folder's
    for rel in files:
        f = folder(rel)
        for name in sorted(declared(strip(text[rel]))):
            where = home.get(name)
            if not where or any(same_group(f, w) for w in where):
                continue
            w = sorted(where)[0]
            what = 'declares' if rel.endswith('.h') else 'declares for itself'
            faults.append(f'engine/{rel}: {what} {name}(), defined in '
                          f'{w or "engine"}/: declare it in a header of '
                          f'{w or "engine"}/')
    for line in faults:
        print(line)
    if faults:
        print(f'{len(faults)} faults against the order of engine/ folders')
        return 1
    print(f'{len(files)} engine files: folders {" -> ".join(reversed(order))} '
          '-> shared, every include and declaration downwards')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
