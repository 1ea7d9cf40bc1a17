# SPDX-License-Identifier: GPL-2.0
# annotate-tests.sh - file:line from DWARF: fixtures/sites.c is compiled
# here with -g into an ET_REL object named sites.ko (what a module is), and
# the expected offsets come from objdump, the expected lines from the
# "site:<name>" comments of the sources. Sourced by run.sh.

# "<function>+0x<off>" of the call to site_alloc in each function, by objdump.
annotate_offsets() {
	objdump -dr --no-show-raw-insn "$1" | awk '
		/call/ { call = $0; next }
		/R_X86_64_PLT32[ \t]+site_alloc-/ && call != "" {
			match(call, /<[a-z_]+\+0x[0-9a-f]+>/)
			print substr(call, RSTART + 1, RLENGTH - 2)
		}
		{ call = "" }'
}

# The line of the "site:<name>" comment in a source.
annotate_line() {
	grep -n "/\* site:$2 \*/" "$1" | cut -d: -f1
}

annotate_tests() {
	local dir=$TMP/annotate src=$FIX/sites.c hdr=$FIX/sites.h sel f size
	local want=$TMP/annotate.want want_inner=$TMP/annotate.inner

	mkdir -p "$dir/mods"
	if ! (cd "$dir" && gcc -g -O2 -c "$src" -o mods/sites.ko) 2>"$TMP/err"; then
		not_ok "annotate: fixture builds" "$(cat "$TMP/err")"
		return
	fi
	echo "allocinfo_ext - version: 1.0" >"$dir/table"
	: >"$want"
	: >"$want_inner"
	for sel in $(annotate_offsets "$dir/mods/sites.ko"); do
		f=${sel%%+*}
		size=$(nm -S "$dir/mods/sites.ko" | awk -v f="$f" '$4 == f { print "0x" $2 }')
		printf '  100 1 %s/%s [sites] func:%s type:slab slack:0 total_calls:1 total_bytes:100 peak:100 failed:0\n' \
			"$sel" "$size" "$f" >>"$dir/table"
		case "$f" in
		site_outer)	# the function it is written in, inlined
			echo "locate $sel $src:$(annotate_line "$src" site_in_source) site_in_source" |
				tee -a "$want_inner" >>"$want" ;;
		site_inlined)
			echo "locate $sel $src:$(annotate_line "$src" "$f")" >>"$want"
			echo "locate $sel $hdr:$(annotate_line "$hdr" header) site_alloc_raw" \
				>>"$want_inner" ;;
		*)
			echo "locate $sel $src:$(annotate_line "$src" "$f")" |
				tee -a "$want_inner" >>"$want" ;;
		esac
	done
	cat >>"$dir/table" <<-'EOT'
	  100 1 site_gone+0x5/0x20 [sites] func:site_gone type:slab slack:0 total_calls:1 total_bytes:100 peak:100 failed:0
	  100 1 foo+0xd/0x20 [nodebug] func:foo type:slab slack:0 total_calls:1 total_bytes:100 peak:100 failed:0
	  100 1 mm/util.c:62 func:kstrdup type:slab slack:0 total_calls:1 total_bytes:100 peak:100 failed:0
	EOT
	if [ "$(wc -l <"$want")" != 3 ]; then
		not_ok "annotate: objdump finds the three calls" "$(cat "$dir/table")"
		return
	fi
	"$TOOL" annotate --dry-run -i "$dir/table" --module-dir "$dir/mods" \
		>"$TMP/out" 2>"$TMP/err"
	if cmp -s "$want" "$TMP/out"; then
		ok "annotate: the caller's line past a header's wrapper; an inlined function named"
	else
		not_ok "annotate: the caller's line past a header's wrapper; an inlined function named" \
			"$(diff -u "$want" "$TMP/out")" "$(cat "$TMP/err")"
	fi
	if [ "$(tail -n 1 "$TMP/err")" = "annotate: 3 sites resolved, 1 without debug info, 1 unresolved, 0 failed; 1 had no function+offset" ]; then
		ok "annotate: sites without debug info or function are counted, not fatal"
	else
		not_ok "annotate: sites without debug info or function are counted" "$(cat "$TMP/err")"
	fi
	"$TOOL" annotate --dry-run --innermost -i "$dir/table" --module-dir "$dir/mods" \
		>"$TMP/out" 2>/dev/null
	if cmp -s "$want_inner" "$TMP/out"; then
		ok "annotate: --innermost gives the header's line"
	else
		not_ok "annotate: --innermost gives the header's line" "$(diff -u "$want_inner" "$TMP/out")"
	fi
	: >"$dir/ctl"
	"$TOOL" annotate -i "$dir/table" --proc "$dir/ctl" --module-dir "$dir/mods" 2>/dev/null
	if [ "$(cat "$dir/ctl")" = "$(tr -d '\n' <"$want")" ]; then
		ok "annotate: one locate word per write to the control file"
	else
		not_ok "annotate: one locate word per write to the control file" "$(cat "$dir/ctl")"
	fi
}

# A kernel built beside its source tree (Debian's rt flavour: its file names
# start with debian/build/source_rt/): the names read as the kernel's tags
# have them, below the tree that holds init/main.c.
annotate_srctree_tests() {
	local dir=$TMP/srctree t=debian/build/source_x sel f size
	mkdir -p "$dir/$t/init" "$dir/$t/mm"
	echo 'int main_init(void) { return 0; }' >"$dir/$t/init/main.c"
	cp "$FIX/sites.c" "$FIX/sites.h" "$dir/$t/mm/"
	if ! (cd "$dir" && gcc -g -O2 -c "$t/init/main.c" -o main.o &&
		gcc -g -O2 -c "$t/mm/sites.c" -o sites.o &&
		ld -r main.o sites.o -o vmlinux) 2>"$TMP/err"; then
		not_ok "annotate: file names below the kernel's source tree" "$(cat "$TMP/err")"
		return
	fi
	sel=$(annotate_offsets "$dir/vmlinux" | grep '^site_direct+')
	f=${sel%%+*}
	size=$(nm -S "$dir/vmlinux" | awk -v f="$f" '$4 == f { print "0x" $2 }')
	printf 'allocinfo_ext - version: 1.0\n  100 1 %s/%s func:%s type:slab slack:0 total_calls:1 total_bytes:100 peak:100 failed:0\n' \
		"$sel" "$size" "$f" >"$dir/table"
	"$TOOL" annotate --dry-run -i "$dir/table" --vmlinux "$dir/vmlinux" \
		>"$TMP/out" 2>"$TMP/err"
	if [ "$(cat "$TMP/out")" = "locate $sel mm/sites.c:$(annotate_line "$FIX/sites.c" site_direct)" ]; then
		ok "annotate: file names below the kernel's source tree, as its tags have them"
	else
		not_ok "annotate: file names below the kernel's source tree" \
			"$(cat "$TMP/out" "$TMP/err")"
	fi
}
