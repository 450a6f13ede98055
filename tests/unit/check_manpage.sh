#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# sysward-policy(5) is generated from policy/README.md by md2man at build
# time (docs/CMakeLists.txt).  Check that the page the build made is the
# page the guide gives now, that groff reads it without a warning, that no
# markdown is left in what a reader sees, and that every section of the
# guide is a section of the page; and that md2man refuses, with the line,
# markdown it does not know rather than write a wrong page.
#
#   check_manpage.sh MD2MAN SOURCE-DIR BUILT-PAGE
set -euo pipefail
md2man=$1 src=$2 page=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The same arguments as docs/CMakeLists.txt, from the source directory.
gen() {
	(cd "$src" && "$md2man" -o "$2" -n sysward-policy -s 5 \
		-d "JSON system call policies for sysward" \
		-v "sysward $(sed -n 's/^project(sysward VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)" \
		-m "File Formats" "$1")
}

gen policy/README.md "$tmp/now.5"
cmp -s "$tmp/now.5" "$page" ||
	fail "$page is not what policy/README.md gives now: rebuild (cmake --build build)"

warnings=$(groff -man -ww -z -Tutf8 "$page" 2>&1) ||
	fail "groff failed on $page"
[ -z "$warnings" ] || fail "groff warns about $page: $warnings"

LC_ALL=C.UTF-8 groff -man -Tutf8 -P-cbou "$page" 2>/dev/null >"$tmp/page.txt"
leftover=$(grep -n -e '`' -e '\*\*' -e '](' "$tmp/page.txt" || true)
[ -z "$leftover" ] || fail "markdown left in the rendered page: $leftover"

while IFS= read -r h; do
	want=$(printf '%s' "${h#\#\# }" | tr -d '`*' | tr '[:lower:]' '[:upper:]')
	grep -qxF "$want" "$tmp/page.txt" || fail "section \"$h\" of the guide is not the page's section \"$want\""
	n=$((${n:-0} + 1))
done < <(grep '^## ' "$src/policy/README.md")
[ "${n:-0}" -ge 10 ] || fail "only ${n:-0} sections in policy/README.md"
for want in NAME DESCRIPTION 'SEE ALSO'; do
	grep -qxF "$want" "$tmp/page.txt" || fail "no section $want"
done
grep -q '^       sysward-policy - JSON system call policies for sysward$' "$tmp/page.txt" ||
	fail "no NAME line"

# What md2man does not know is an error naming the line, and no page.
printf '# t\n\ntext\n\n<div>html</div>\n' >"$tmp/html.md"
printf '# t\n\n```\ncode\n' >"$tmp/fence.md"
printf '# t\n\n| a | b |\n|---|---|\n| 1 | 2 | 3 |\n' >"$tmp/table.md"
for c in "html.md:5: HTML or a block quote" \
	 "fence.md:4: a \`\`\` block that is never closed" \
	 "table.md:5: a table row whose number of cells is not its header's"; do
	f=${c%%:*}
	if out=$(cd "$tmp" && "$md2man" -o "$tmp/$f.5" -n t -s 5 -d d "$f" 2>&1); then
		fail "md2man accepted $f"
	fi
	case $out in
	"md2man: $c;"*) ;;
	*) fail "md2man on $f said: $out (want md2man: $c; ...)" ;;
	esac
	[ ! -e "$tmp/$f.5" ] && [ ! -e "$tmp/$f.5.tmp" ] || fail "md2man left a page for $f"
done

[ "$fails" -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "sysward-policy(5): generated from policy/README.md, $n sections, groff silent"
