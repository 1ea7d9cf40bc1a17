# SPDX-License-Identifier: GPL-2.0
# stdin-tests.sh - "-" is standard input wherever a file is read, and
# "help COMMAND" is "COMMAND --help". Sourced by run.sh, run in fixtures/.

# Each command that reads a file, with @ where the file goes, and the file.
STDIN_COMMANDS=(
	"ext-b.txt|group --by module @"
	"ext-b.txt|diff ext-a.txt @"
	"ext-b.txt|diff @ ext-a.txt"
	"ext-b.txt|top -b -n 1 @"
	"ext-b.txt|export -f json @"
	"ext-b.txt|export -f csv @"
	"ext-b.txt|export -f prometheus @"
	"ext-b.txt|report -o - @"
	"ext-b.txt|snapshot --kernel 6.12 --uptime 5 @"
	"ext-b.txt|query -j @"
	"oom-dmesg.txt|export -f csv @"
	"leaks-t1.txt|leaks @ leaks-l1.txt leaks-t2.txt leaks-l2.txt"
	"leaks-l1.txt|leaks leaks-t1.txt @ leaks-t2.txt leaks-l2.txt"
	"cmp-ours.txt|compare --ours @ --theirs cmp-theirs.txt --baseline cmp-base.txt"
	"cmp-theirs.txt|compare --ours cmp-ours.txt --theirs @ --baseline cmp-base.txt"
	"cmp-base.txt|compare --ours cmp-ours.txt --theirs cmp-theirs.txt --baseline @"
	"kernel.txt|compare --save-baseline - --theirs @"
	"stacks.txt|context --stacks @ --calls stacks-calls.txt all"
	"stacks-calls.txt|context --stacks stacks.txt --calls @ all"
	"ledger/dmesg|ledger --root ledger --log @"
)

# top's title holds the clock: two runs straddle a second at times.
TOP_CLOCK='s/^\(allocinfo-ext top - \)[0-9][0-9]:[0-9][0-9]:[0-9][0-9] /\1T /'

# Each command's output (stdout and stderr) with "-" and the file on
# standard input is its output with the file named, the name written "-"
# (a snapshot's time, and top's clock in its title, left out); both exit 0.
stdin_tests() {
	local e file cmd rc failed=()

	for e in "${STDIN_COMMANDS[@]}"; do
		IFS='|' read -r file cmd <<<"$e"
		# shellcheck disable=SC2086
		"$TOOL" ${cmd//@/$file} >"$TMP/out" 2>&1
		rc=$?
		grep -v '^# time: ' "$TMP/out" | sed "s|$file|-|g; $TOP_CLOCK" >"$TMP/want"
		if [ "$rc" != 0 ] || [ ! -s "$TMP/want" ]; then
			failed+=("$cmd with $file: exit $rc, $(cat "$TMP/out")")
			continue
		fi
		# shellcheck disable=SC2086
		"$TOOL" ${cmd//@/-} <"$file" >"$TMP/out" 2>&1
		rc=$?
		grep -v '^# time: ' "$TMP/out" | sed "$TOP_CLOCK" >"$TMP/got"
		if [ "$rc" != 0 ] || ! cmp -s "$TMP/want" "$TMP/got"; then
			failed+=("$cmd: exit $rc, $(diff "$TMP/want" "$TMP/got" | head -n 5)")
		fi
	done
	if [ ${#failed[@]} = 0 ]; then
		ok "stdin: - reads standard input in every command that reads a file"
	else
		not_ok "stdin: - reads standard input in every command that reads a file" \
			"${failed[@]}"
	fi
	# shellcheck disable=SC2094
	expect_out "stdin: - read twice is the same text (diff - -)" \
		<("$TOOL" diff ext-a.txt ext-a.txt | sed 's|ext-a.txt|-|g') \
		"$TOOL" diff - - <ext-a.txt
	# shellcheck disable=SC2016,SC2094
	expect_out "stdin: top - samples the same text again" \
		<("$TOOL" top -b -n 2 -d 0.1 ext-a.txt | sed 's|ext-a.txt|-|g; s/[0-9][0-9]:[0-9][0-9]:[0-9][0-9]/T/') \
		bash -c '"$1" top -b -n 2 -d 0.1 - <ext-a.txt | sed "s/[0-9][0-9]:[0-9][0-9]:[0-9][0-9]/T/"' _ "$TOOL"
	expect_err "stdin: query --via ioctl - says standard input has no ioctls" 1 \
		"allocinfo-ext: standard input has no ioctls: --via ioctl needs the /proc file" \
		"$TOOL" query --via ioctl - </dev/null
	expect_err "stdin: an empty standard input is no table" 1 \
		"allocinfo-ext: -: no version line: not /proc/allocinfo_ext, /proc/allocinfo or a snapshot of either" \
		"$TOOL" group --by module - </dev/null
}

help_tests() {
	local c failed=()

	for c in top snapshot diff group export ctl annotate report context \
		leaks ledger compare query; do
		"$TOOL" "$c" --help >"$TMP/want" 2>&1
		if ! "$TOOL" help "$c" >"$TMP/out" 2>&1 || ! cmp -s "$TMP/want" "$TMP/out" ||
			[ "$(head -c 6 "$TMP/out")" != "Usage:" ]; then
			failed+=("help $c: $(diff "$TMP/want" "$TMP/out" | head -n 3)")
		fi
	done
	if [ ${#failed[@]} = 0 ]; then
		ok "help: help COMMAND prints COMMAND --help, for every command"
	else
		not_ok "help: help COMMAND prints COMMAND --help, for every command" "${failed[@]}"
	fi
	expect_err "help: help of an unknown command fails" 2 \
		"allocinfo-ext: unknown command \"bogus\": help knows the commands and options
Try 'allocinfo-ext --help'." "$TOOL" help bogus
	expect_err "help: help takes one word" 2 \
		"allocinfo-ext: help takes one word: a command, or options
Try 'allocinfo-ext --help'." "$TOOL" help top diff
}
