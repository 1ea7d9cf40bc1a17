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
# 3. The units have no circle, inside a folder or across: a unit is a .c
#    (or .S) file with the header of its name (a header alone is a unit
#    of its own), and it depends on another when one of its files
#    includes the other's header or, with the module built, its object
#    refers to a symbol the other's defines.
# 4. No two .c (or .S) files of module/ have one name: Kbuild before 6.x
#    keys per-object flags by the name alone.
# 5. Every /proc file is created and removed in module/iface/: no
#    proc_create*(), proc_mkdir*(), proc_symlink(), proc_remove() or
#    remove_proc_*() call elsewhere in module/.
# 6. No source file of module/, selftests/ or tools/ is over 600 lines
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

# unit FILE: the unit of a file of module/ (3), its path without extension
unit() { echo "${1%.*}"; }

# 1. includes (their unit edges kept for 3)
bad=()
unit_edges=()
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
		[ "$(unit "$f")" = "$(unit "$path")" ] ||
			unit_edges+=("$(unit "$f") $(unit "$path") #include")
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
	while read -r a b sym; do
		[ -n "$a" ] && unit_edges+=("$(unit "$a") $(unit "$b") $sym")
	done <<<"$edges"
	loop=$(echo "$edges" | awk 'NF {print $1, $2}' | sort -u | tsort 2>&1 >/dev/null)
	if [ -z "$loop" ]; then
		ok "the objects' references have no cycle"
	else
		notok "the objects' references have a cycle"
		echo "$loop" | sed 's/^/# /'
	fi
fi

# 3. circles among the units: what ties each unit tsort names in a loop
if [ ${#unit_edges[@]} -eq 0 ]; then
	loop=
else
	loop=$(printf '%s\n' "${unit_edges[@]}" | awk '{print $1, $2}' |
		sort -u | tsort 2>&1 >/dev/null)
fi
if [ -z "$loop" ]; then
	ok "the units (a .c with its .h) have no circle of includes or calls"
else
	notok "the units have a circle"
	echo "$loop" | sed 's/^/# /'
	in_loop=$(echo "$loop" | sed -n 's/^tsort: //p' | grep -v ':')
	printf '%s\n' "${unit_edges[@]}" | sort -u | while read -r a b why; do
		grep -qx "$a" <<<"$in_loop" && grep -qx "$b" <<<"$in_loop" &&
			echo "# $a -> $b: $why"
	done
fi

# 4. one name per .c file
dup=$(find . \( -name '*.c' -o -name '*.S' \) ! -name '*.mod.c' |
	sed 's|.*/||; s|\.[cS]$||' | sort | uniq -d)
if [ -z "$dup" ]; then
	ok "no two .c files of module/ have one name"
else
	notok "file names used twice"
	for d in $dup; do
		find . \( -name "$d.c" -o -name "$d.S" \) | sed 's|^\./|# |'
	done
fi

# 5. /proc files, in iface/ alone (comments left out)
procs=$(find . -name '*.[ch]' ! -name '*.mod.c' ! -path './iface/*' |
	sed 's|^\./||' | sort | while read -r f; do
	sed -e 's|/\*.*\*/||g' -e 's|//.*||' "$f" |
		grep -nE '\b(proc_create[a-z_]*|proc_mkdir[a-z_]*|proc_symlink|proc_remove|remove_proc_[a-z_]+)[[:space:]]*\(' |
		grep -vE '^[0-9]+:[[:space:]]*(\*|/\*)' | sed "s|^|$f:|"
done)
if [ -z "$procs" ]; then
	ok "every /proc file is created and removed in iface/"
else
	notok "/proc files made or removed outside iface/"
	echo "$procs" | sed 's/^/# /'
fi

# 6. file sizes: of the sources git has or would add (no build output)
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
