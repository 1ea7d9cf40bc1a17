#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.sh - the kernel's checkpatch.pl --strict on every C source and
# header of module/ and selftests/ (subdirectories too), one TAP line per
# file: "ok - checkpatch: PATH", or "not ok - checkpatch: PATH" and its
# findings as "# " lines. Exits non-zero when a file is not ok.
#
# checkpatch.pl comes from Debian's linux-source-6.12 tarball
# (/usr/src/linux-source-6.12.tar.xz, apt-get install linux-source-6.12),
# extracted once into ${AIE_CACHE:-<top>/.cache}/checkpatch.
#
# The files are those git knows and those it would add (not ignored: no
# kbuild output, nothing generated at build time), or every *.[ch] when
# the tree is no git checkout. module/compat.h, where the kernel versions
# are told apart, and the test helper's aie_helper_compat.h may use what
# checkpatch finds in version tests, in the kernel's own names and in
# macros that define functions: COMPAT_IGNORE below.
#
# checkpatch runs in a directory of its own (--strict seeds its CamelCase
# cache there, .checkpatch-camelcase.*), removed at the end: nothing is
# left in the tree.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${AIE_CACHE:-$top/.cache}/checkpatch
tarball=${AIE_KSRC_TAR:-/usr/src/linux-source-6.12.tar.xz}
COMPAT_IGNORE=LINUX_VERSION_CODE,CONSTANT_COMPARISON,CAMELCASE,MACRO_ARG_REUSE,MACRO_WITH_FLOW_CONTROL

if [ ! -e "$cache/.extracted" ]; then
	if [ ! -f "$tarball" ]; then
		echo "error: $tarball missing: apt-get install linux-source-6.12" >&2
		exit 2
	fi
	mkdir -p "$cache"
	tar -C "$cache" --strip-components=1 -xf "$tarball" \
		linux-source-6.12/scripts/checkpatch.pl \
		linux-source-6.12/scripts/spelling.txt \
		linux-source-6.12/scripts/const_structs.checkpatch || {
		echo "error: cannot extract checkpatch.pl from $tarball" >&2
		exit 2
	}
	touch "$cache/.extracted"
fi

files() {
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$top" ls-files --cached --others --exclude-standard \
			-- 'module/*.[ch]' 'selftests/*.[ch]' |
			while read -r f; do
				[ -f "$top/$f" ] && echo "$f"
			done
	else
		(cd "$top" && find module selftests -name '*.[ch]' \
			! -name '*.mod.c')
	fi | LC_ALL=C sort -u
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# --root: checkpatch seeds its CamelCase list from <root>/include; empty.
mkdir "$work/include"
cd "$work"
unset GIT_DIR

fail=0 n=0
while read -r f; do
	[ -n "$f" ] || continue
	n=$((n + 1))
	opts=()
	case "$f" in
	module/compat.h | selftests/allocinfo_ext/aie_helper/aie_helper_compat.h)
		opts=(--ignore "$COMPAT_IGNORE") ;;
	esac
	if out=$(perl "$cache/scripts/checkpatch.pl" --no-tree --root="$work" \
		--strict --terse --show-types --no-summary "${opts[@]}" \
		-f "$top/$f" 2>&1); then
		[ -z "$out" ] && { echo "ok - checkpatch: $f"; continue; }
	fi
	fail=$((fail + 1))
	echo "not ok - checkpatch: $f"
	printf '%s\n' "$out" | sed "s|$top/||; s/^/# /"
done < <(files)
echo "# checkpatch: $n files, $fail not ok"
[ "$n" -gt 0 ] || { echo "error: no files to check" >&2; exit 2; }
[ "$fail" -eq 0 ]
