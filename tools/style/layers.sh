#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# layers.sh - the module's layering, checked (Documentation/process.rst):
#
#   arch < lib < core < extras < track < hooks < iface < main.c
#
# 1. Every quoted #include of a file in module/ names a header of its own
#    layer or of one below it (aie.h, compat.h, compat_*.h and arch/, layer 0:
#    every layer's).
# 2. With the module built (module/**/*.o), no object refers to a symbol
#    of an object in a layer above it, and the objects' references have
#    no cycle: no .c file calls into one that calls it back, directly or
#    around a longer loop (tsort).
# 3. No source file of module/, selftests/ or tools/ is over 600 lines
#    (build output aside).
#
# One TAP line per check; exits non-zero when one fails.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top/module" || exit 1
fail=0

layer() {
	case "$1" in
	aie.h | compat.h | compat_*.h | arch/*) echo 0 ;;
	lib/*) echo 1 ;;
	core/*) echo 2 ;;
	extras/*) echo 3 ;;
	track/*) echo 4 ;;
	hooks/*) echo 5 ;;
	iface/*) echo 6 ;;
	main.c) echo 7 ;;
	*) echo 99 ;;
	esac
}

ok() { echo "ok - layers: $*"; }
notok() { echo "not ok - layers: $*"; fail=1; }

# 1. includes
bad=()
while IFS= read -r f; do
	fl=$(layer "$f")
	[ "$fl" = 99 ] && bad+=("$f: in no layer")
	dir=$(dirname "$f")
	while IFS= read -r inc; do
		if [[ "$inc" == */* ]]; then
			path=$inc
		elif [ -e "$dir/$inc" ]; then
			path=${dir#./}/$inc
			path=${path#./}
		else
			path=$inc
		fi
		[ -e "$path" ] || { bad+=("$f: #include \"$inc\": no such file"); continue; }
		il=$(layer "$path")
		[ "$il" -le "$fl" ] || bad+=("$f includes $path, a layer above")
	done < <(sed -n 's/^#include "\(.*\)"/\1/p' "$f")
done < <(find . -name '*.[chS]' ! -name '*.mod.c' | sed 's|^\./||' | sort)
if [ ${#bad[@]} -eq 0 ]; then
	ok "every #include names its own layer or one below"
else
	notok "includes"
	printf '# %s\n' "${bad[@]}"
fi

# 2. references between the objects
mapfile -t objs < <(find . -name '*.o' ! -name '*.mod.o' ! -name 'allocinfo_ext.o' \
	! -name '.*' | sed 's|^\./||' | sort)
if [ ${#objs[@]} -lt 10 ]; then
	notok "references: the module is not built (no objects in module/)"
else
	declare -A def
	for o in "${objs[@]}"; do
		while read -r s; do def[$s]=$o; done < <(nm --defined-only "$o" |
			awk '$2 ~ /[TDBRtdbr]/ && $2 ~ /[A-Z]/ {print $3}')
	done
	edges=$(for o in "${objs[@]}"; do
		nm -u "$o" | awk '{print $2}' | while read -r s; do
			d=${def[$s]:-}
			[ -n "$d" ] && [ "$d" != "$o" ] && echo "$o $d $s"
		done
	done | sort -u)
	up=$(echo "$edges" | while read -r a b s; do
		[ -n "$a" ] || continue
		[ "$(layer "${a%.o}.c")" -ge "$(layer "${b%.o}.c")" ] ||
			echo "$a refers to $s of $b, a layer above"
	done)
	if [ -z "$up" ]; then
		ok "no object refers to one of a layer above"
	else
		notok "references upward"
		echo "$up" | sed 's/^/# /'
	fi
	loop=$(echo "$edges" | awk 'NF {print $1, $2}' | sort -u | tsort 2>&1 >/dev/null)
	if [ -z "$loop" ]; then
		ok "the objects' references have no cycle"
	else
		notok "the objects' references have a cycle"
		echo "$loop" | sed 's/^/# /'
	fi
fi

# 3. file sizes: of the sources git has or would add (no build output)
sources() {
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$top" ls-files --cached --others --exclude-standard \
			-- 'module/*.[chS]' 'selftests/*.[chS]' 'tools/*.[chS]'
	else
		(cd "$top" && find module selftests tools -name '*.[chS]' \
			! -name '*.mod.c')
	fi
}
big=$(cd "$top" && sources | while read -r f; do
	[ -f "$f" ] && wc -l "$f"
done | awk '$1 > 600 {print $2 " (" $1 " lines)"}')
if [ -z "$big" ]; then
	ok "no source file is over 600 lines"
else
	notok "files over 600 lines"
	echo "$big" | sed 's/^/# /'
fi
exit $fail
