# SPDX-License-Identifier: GPL-2.0
# output-tests.sh - where -o writes: a regular file replaced atomically
# (a new inode, fsync'ed before the rename, then its directory; mode
# kept), a symlink followed, a FIFO and a device written in place, "-"
# standard output, and the temporary file removed when a signal ends the
# tool. output-shim.c, preloaded, logs the fsync() calls or sends a signal
# from the first. Sourced by run.sh, run in fixtures/.

# shim_build: $TMP/shim.so, or 1 after a not ok line.
shim_build() {
	[ -e "$TMP/shim.so" ] && return 0
	if ! gcc -shared -fPIC -O2 -Wall -Werror -o "$TMP/shim.so" \
		"$HERE/output-shim.c" -ldl 2>"$TMP/err"; then
		not_ok "output: the fsync() shim builds" "$(cat "$TMP/err")"
		return 1
	fi
}

# tmp_left DIR: the temporary files left in DIR, if any.
tmp_left() {
	find "$1" -name '*.tmp.*'
}

output_replace_test() {
	local d=$TMP/o-reg name="output: a regular file replaced: new inode, mode kept, fsync'ed, then its directory"
	local ino log rc

	shim_build || return
	mkdir -p "$d"
	echo old >"$d/a.csv"
	chmod 640 "$d/a.csv"
	ino=$(stat -c %i "$d/a.csv")
	AIE_SHIM_LOG=$d.log LD_PRELOAD=$TMP/shim.so \
		"$TOOL" export -f csv -o "$d/a.csv" ext-a.txt >"$TMP/out" 2>"$TMP/err"
	rc=$?
	log=$(cat "$d.log" 2>/dev/null)
	if [ "$rc" = 0 ] && cmp -s "$d/a.csv" "$EXP/ext-a.csv" && [ ! -s "$TMP/err" ] &&
		[ "$(stat -c %a "$d/a.csv")" = 640 ] && [ "$(stat -c %i "$d/a.csv")" != "$ino" ] &&
		[[ $log =~ ^$d/a\.csv\.tmp\.[A-Za-z0-9]{6}$'\n'$d$ ]] && [ -z "$(tmp_left "$d")" ]; then
		ok "$name"
	else
		not_ok "$name" "exit $rc" "$(cat "$TMP/err")" "fsync log: $log" "$(ls -li "$d")"
	fi
	name="output: a new file gets 0666 less the umask, as the shell's >"
	(umask 002 && "$TOOL" export -f csv -o "$d/new.csv" ext-a.txt)
	if [ "$(stat -c %a "$d/new.csv")" = 664 ] && cmp -s "$d/new.csv" "$EXP/ext-a.csv"; then
		ok "$name"
	else
		not_ok "$name" "$(ls -l "$d")"
	fi
}

output_symlink_test() {
	local d=$TMP/o-link name="output: a symlink followed to its target, relative, chained or dangling; links stay"

	mkdir -p "$d/sub"
	echo old >"$d/sub/target.csv"
	ln -s sub/target.csv "$d/link.csv"
	ln -s "$d/link.csv" "$d/link2.csv"
	ln -s ../new.csv "$d/sub/dangling.csv"
	if "$TOOL" export -f csv -o "$d/link2.csv" ext-a.txt 2>"$TMP/err" &&
		"$TOOL" export -f csv -o "$d/sub/dangling.csv" ext-a.txt 2>>"$TMP/err" &&
		[ "$(readlink "$d/link.csv")" = sub/target.csv ] &&
		[ "$(readlink "$d/link2.csv")" = "$d/link.csv" ] &&
		[ "$(readlink "$d/sub/dangling.csv")" = ../new.csv ] &&
		cmp -s "$d/sub/target.csv" "$EXP/ext-a.csv" &&
		cmp -s "$d/new.csv" "$EXP/ext-a.csv" && [ -z "$(tmp_left "$d")" ]; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/err")" "$(ls -lR "$d")"
	fi
	ln -s loop1 "$d/loop2"
	ln -s loop2 "$d/loop1"
	expect_err "output: a symlink loop said" 1 \
		"allocinfo-ext: cannot write $d/loop1: Too many levels of symbolic links" \
		"$TOOL" export -f csv -o "$d/loop1" ext-a.txt
}

output_in_place_test() {
	local d=$TMP/o-fifo name="output: a FIFO written in place, it stays a FIFO"
	local reader rc

	mkdir -p "$d"
	mkfifo "$d/fifo"
	timeout 10 cat "$d/fifo" >"$d/got" &
	reader=$!
	timeout 10 "$TOOL" export -f csv -o "$d/fifo" ext-a.txt 2>"$TMP/err"
	rc=$?
	wait "$reader"
	if [ "$rc" = 0 ] && [ -p "$d/fifo" ] && cmp -s "$d/got" "$EXP/ext-a.csv" &&
		[ -z "$(tmp_left "$d")" ]; then
		ok "$name"
	else
		not_ok "$name" "exit $rc" "$(cat "$TMP/err")" "$(ls -l "$d")"
	fi
	name="output: a device written in place, it stays a device (/dev/null, /dev/full)"
	if ! mknod "$d/null" c 1 3 2>/dev/null || ! mknod "$d/full" c 1 7 2>/dev/null; then
		ok "$name # SKIP mknod needs root"
		return
	fi
	"$TOOL" snapshot -o "$d/null" ext-a.txt >"$TMP/out" 2>"$TMP/err"
	rc=$?
	"$TOOL" export -f json -o "$d/full" ext-a.txt >>"$TMP/out" 2>>"$TMP/err"
	rc="$rc $?"
	if [ "$rc" = "0 1" ] && [ -c "$d/null" ] && [ -c "$d/full" ] && [ ! -s "$TMP/out" ] &&
		[ "$(cat "$TMP/err")" = "allocinfo-ext: cannot write $d/full: No space left on device" ] &&
		[ -z "$(tmp_left "$d")" ]; then
		ok "$name"
	else
		not_ok "$name" "exit $rc, want 0 1" "$(cat "$TMP/err")" "$(ls -l "$d")"
	fi
}

output_stdout_test() {
	local d=$TMP/o-stdout

	mkdir -p "$d"
	expect_out "output: -o - is standard output (export)" "$EXP/ext-a.csv" \
		"$TOOL" export -f csv -o - ext-a.txt
	if (cd "$d" && "$TOOL" compare --save-baseline - --theirs "$FIX/kernel.txt" \
		>"$TMP/out" 2>"$TMP/err") && cmp -s "$TMP/out" kernel.txt &&
		[ ! -s "$TMP/err" ] && [ ! -e "$d/-" ]; then
		ok "output: --save-baseline - is standard output, no file named -"
	else
		not_ok "output: --save-baseline - is standard output, no file named -" \
			"$(cat "$TMP/err")" "$(ls -l "$d")"
	fi
}

# A signal while the temporary file exists: the tool dies of it, the
# temporary file is gone, the old file stays.
output_signal_test() {
	local d=$TMP/o-sig sig rc failed=()

	shim_build || return
	mkdir -p "$d"
	for sig in 2:130 15:143 1:129; do
		echo old >"$d/a.prom"
		: >"$d.log"
		# the braces keep bash's "Terminated" from run.sh's stderr
		{ AIE_SHIM_LOG=$d.log AIE_SHIM_SIGNAL=${sig%:*} LD_PRELOAD=$TMP/shim.so \
			"$TOOL" export -f prometheus -o "$d/a.prom" ext-a.txt >"$TMP/out" 2>&1; } 2>/dev/null
		rc=$?
		if [ "$rc" != "${sig#*:}" ] || [ "$(cat "$d/a.prom")" != old ] ||
			[ -n "$(tmp_left "$d")" ] || [ -s "$TMP/out" ] ||
			! grep -q "^$d/a\.prom\.tmp\." "$d.log"; then
			failed+=("signal ${sig%:*}: exit $rc, want ${sig#*:}; $(cat "$TMP/out")"
				"$(ls -l "$d")" "$(cat "$d.log")")
		fi
	done
	if [ ${#failed[@]} = 0 ]; then
		ok "output: SIGINT, SIGTERM, SIGHUP while writing: temporary removed, old file kept"
	else
		not_ok "output: SIGINT, SIGTERM, SIGHUP while writing" "${failed[@]}"
	fi
}

output_tests() {
	output_replace_test
	output_symlink_test
	output_in_place_test
	output_stdout_test
	output_signal_test
}
