# SPDX-License-Identifier: GPL-2.0
# cmd-tests.sh - diff, group, export, top and ctl against exact expected
# output. Sourced by run.sh, run in fixtures/.

diff_tests() {
	expect_out "diff: growth order, new and gone sites, totals" \
		"$EXP/diff.out" "$TOOL" diff ext-a.txt ext-b.txt
	expect_out "diff: -a lists unchanged sites, -l limits rows" \
		"$EXP/diff-all.out" "$TOOL" diff -a -l 7 ext-a.txt ext-b.txt
	expect_out "diff: rows of one key summed, header counts sites and rows (kernel format)" \
		"$EXP/diff-kernel.out" "$TOOL" diff -a kernel.txt kernel.txt
	diff_exit_code_test
	expect_err "diff: needs two tables" 2 \
		"allocinfo-ext: diff takes two tables, A and B
Try 'allocinfo-ext diff --help'." "$TOOL" diff ext-a.txt
}

# --exit-code: 0 same, 1 different, 2 trouble; without it 0 and 1.
diff_exit_code_test() {
	local got=() args name="diff: --exit-code exits as diff(1): 0 same, 1 different, 2 trouble"

	for args in "--exit-code ext-a.txt ext-a.txt" "--exit-code ext-a.txt ext-b.txt" \
		"--exit-code ext-a.txt bad-nul.txt" "ext-a.txt ext-b.txt" "ext-a.txt bad-nul.txt"; do
		# shellcheck disable=SC2086
		"$TOOL" diff $args >/dev/null 2>&1
		got+=($?)
	done
	"$TOOL" diff --exit-code ext-a.txt ext-b.txt >/dev/full 2>/dev/null
	got+=($?)
	if [ "${got[*]}" = "0 1 2 0 1 2" ]; then
		ok "$name"
	else
		not_ok "$name" "exit statuses: ${got[*]}, want 0 1 2 0 1 2"
	fi
}

group_tests() {
	local by

	for by in module subsystem function file; do
		expect_out "group: --by $by" "$EXP/group-$by.out" \
			"$TOOL" group --by "$by" ext-a.txt
	done
	expect_out "group: -l 2, the two largest groups, the header's totals all" \
		<(head -n 4 "$EXP/group-function.out") "$TOOL" group --by function -l 2 ext-a.txt
	expect_out "group: -j -l 1, one group in JSON" \
		<(sed -n '1,3p' "$EXP/group-subsystem.json" | sed '3s/},$/}/'; echo ' ]}') \
		"$TOOL" group -j -l 1 --by subsystem ext-a.txt
	expect_out "group: --by function, kernel format, duplicates summed" \
		"$EXP/group-kernel.out" "$TOOL" group --by function kernel.txt
	expect_out "group: --by node, node keys summed, rows without them (none)" \
		"$EXP/group-node.out" "$TOOL" group --by node ext-numa.txt
	expect_out "group: --by node --json, calls and slack null" \
		"$EXP/group-node.json" "$TOOL" group --by node --json ext-numa.txt
	expect_err "group: unknown key refused" 2 \
		"allocinfo-ext: cannot group by \"colour\": expected module, subsystem, function, file, node or cgroup
Try 'allocinfo-ext group --help'." "$TOOL" group --by colour ext-a.txt
}

export_tests() {
	expect_out "export: json, with a snapshot's head" "$EXP/ext-b.json" \
		"$TOOL" export --format json ext-b.txt
	if python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert [s["bytes"] for s in d["sites"]][:2] == [262144, 4096]
assert d["sites"][6]["file"] == "lib/we\"ird\\path,x.c"' "$EXP/ext-b.json"; then
		ok "export: json parses, escapes read back"
	else
		not_ok "export: json parses, escapes read back"
	fi
	expect_out "export: prometheus --site-label --zeros, allocinfo_ext format, every series" \
		"$EXP/ext-a.prom" "$TOOL" export -f prometheus --site-label --zeros ext-a.txt
	expect_out "export: prometheus --site-label --zeros, kernel format, one series per label set" \
		"$EXP/kernel.prom" "$TOOL" export -f prometheus --zeros --site-label kernel.txt
	expect_out "export: prometheus, labels without offsets, sites sharing them summed, no zeros, accounted" \
		"$EXP/ext-fleet.prom" "$TOOL" export -f prometheus ext-fleet.txt
	expect_out "export: prometheus, node bytes with a node label" \
		"$EXP/ext-numa.prom" "$TOOL" export -f prometheus ext-numa.txt
	expect_out "export: prometheus --top 2 --min-bytes 5000, table total kept" \
		"$EXP/ext-fleet-top.prom" "$TOOL" export -f prometheus --top 2 \
		--min-bytes 5000 ext-fleet.txt
	if [ "$("$TOOL" export -f prometheus --min-bytes 4096 ext-fleet.txt |
		grep -c '^allocinfo_ext_bytes{')" = 3 ]; then
		ok "export: --min-bytes keeps the series from B on"
	else
		not_ok "export: --min-bytes keeps the series from B on"
	fi
	# shellcheck disable=SC2016
	expect_out "export: --min-bytes 4K is 4096, 4KiB and 4k too" \
		<("$TOOL" export -f prometheus --min-bytes 4096 ext-fleet.txt) \
		bash -c 'for b in 4K 4KiB 4k; do "$1" export -f prometheus --min-bytes $b ext-fleet.txt |
			cmp - <("$1" export -f prometheus --min-bytes 4096 ext-fleet.txt) || exit 1
		done; "$1" export -f prometheus --min-bytes 4K ext-fleet.txt' _ "$TOOL"
	expect_out "query: --min-bytes 1M is 1048576" \
		<("$TOOL" query --min-bytes 1048576 kernel.txt) "$TOOL" query --min-bytes 1M kernel.txt
	expect_err "export: --min-bytes 1.5M refused, the units said" 2 \
		"allocinfo-ext: bad byte count \"1.5M\": a number, 0 or more, K, M, G or T after it for 1024s
Try 'allocinfo-ext export --help'." "$TOOL" export -f prometheus --min-bytes 1.5M ext-fleet.txt
	expect_out "export: prometheus --top 0 keeps every series, as -l 0 elsewhere" \
		"$EXP/ext-fleet.prom" "$TOOL" export -f prometheus --top 0 ext-fleet.txt
	expect_out "export: prometheus leaves out negative counters, and series summing one" \
		"$EXP/ext-negative-counters.prom" "$TOOL" export -f prometheus ext-negative-counters.txt
	expect_err "export: --top is for prometheus" 2 \
		"allocinfo-ext: --top, --min-bytes, --zeros, --site-label and --cgroups are for --format prometheus
Try 'allocinfo-ext export --help'." "$TOOL" export -f json --top 3 ext-a.txt
	if promtool check metrics <"$EXP/ext-a.prom" >"$TMP/out" 2>&1 &&
		promtool check metrics <"$EXP/kernel.prom" >>"$TMP/out" 2>&1 &&
		promtool check metrics <"$EXP/ext-fleet.prom" >>"$TMP/out" 2>&1 &&
		promtool check metrics <"$EXP/ext-fleet-top.prom" >>"$TMP/out" 2>&1 &&
		promtool check metrics <"$EXP/ext-negative-counters.prom" >>"$TMP/out" 2>&1; then
		ok "export: promtool check metrics finds no problem"
	else
		not_ok "export: promtool check metrics finds no problem" "$(cat "$TMP/out")"
	fi
	"$TOOL" export -f csv -o "$TMP/a.csv" ext-a.txt
	if cmp -s "$TMP/a.csv" "$EXP/ext-a.csv" && [ -z "$(ls "$TMP"/a.csv.tmp.* 2>/dev/null)" ]; then
		ok "export: -o writes the file, no temporary left"
	else
		not_ok "export: -o writes the file, no temporary left"
	fi
}

top_tests() {
	"$TOOL" top -b -n 1 -l 0 ext-a.txt >"$TMP/top" 2>&1
	if [[ "$(head -n 1 "$TMP/top")" =~ ^"allocinfo-ext top - "[0-9]{2}:[0-9]{2}:[0-9]{2}" - ext-a.txt - sorted by bytes - every 3.0s"$ ]] &&
		cmp -s <(tail -n +2 "$TMP/top") "$EXP/top-bytes.out"; then
		ok "top: batch mode, sorted by bytes"
	else
		not_ok "top: batch mode, sorted by bytes" "$(cat "$TMP/top")"
	fi
	"$TOOL" top -b -n 2 -d 0.1 -s slack -l 3 kernel.txt >"$TMP/top" 2>&1
	if [ "$(grep -c '^allocinfo-ext top' "$TMP/top")" = 2 ] &&
		cmp -s <(tail -n +9 "$TMP/top") "$EXP/top-kernel.out"; then
		ok "top: -n samples, -l rows, kernel format, growth of a repeated sample is 0"
	else
		not_ok "top: -n samples, -l rows, kernel format" "$(cat "$TMP/top")"
	fi
	top_terminal_test
	top_screen_tests
	expect_err "top: unknown sort key refused" 2 \
		"allocinfo-ext: cannot sort by \"size\": expected bytes, calls, slack or growth
Try 'allocinfo-ext top --help'." "$TOOL" top -s size ext-a.txt
}

# tmux_screen_has TEXT: the top session's screen shows TEXT.
tmux_screen_has() {
	tmux -L "$TMUX_SOCK" capture-pane -p -t top 2>/dev/null | grep -qF "$1"
}

tmux_gone() {
	! tmux -L "$TMUX_SOCK" has-session -t top 2>/dev/null
}

# In a terminal (tmux, 100x9): the screen holds 5 rows, keys sort, q quits.
top_terminal_test() {
	local name="top: in a terminal, rows fit the screen, keys sort, q quits"

	TMUX_SOCK=aie-top-$$
	if ! tmux -L "$TMUX_SOCK" new-session -d -s top -x 100 -y 9 \
		"$TOOL top -d 0.5 ext-a.txt"; then
		not_ok "$name" "tmux did not start"
		return
	fi
	if wait_until 10 tmux_screen_has "sorted by bytes" &&
		tmux_screen_has "alloc_pipe_info" && ! tmux_screen_has "odd_name" &&
		tmux -L "$TMUX_SOCK" send-keys -t top c &&
		wait_until 10 tmux_screen_has "sorted by calls" &&
		tmux -L "$TMUX_SOCK" send-keys -t top q && wait_until 10 tmux_gone; then
		ok "$name"
	else
		not_ok "$name" "$(tmux -L "$TMUX_SOCK" capture-pane -p -t top 2>&1)"
	fi
	tmux -L "$TMUX_SOCK" kill-server 2>/dev/null
}

ctl_tests() {
	expect_out "ctl: a good command passes the module's own parser" \
		<(echo "disable [nf_conntrack]") "$TOOL" ctl --dry-run disable '[nf_conntrack]'
	expect_err "ctl: a bad selector is refused with the module's reason" 1 \
		'allocinfo-ext: invalid control word "disable func:": bad selector' \
		"$TOOL" ctl --dry-run disable func:
	expect_err "ctl: locate needs function+offset and file:line" 1 \
		'allocinfo-ext: invalid control word "locate foo mm/x.c:1": expected <function>+0x<off> <file>:<line> [<function>]' \
		"$TOOL" ctl locate foo mm/x.c:1
	: >"$TMP/ctl"
	if "$TOOL" ctl --proc "$TMP/ctl" enable func:kstrdup 2>"$TMP/err" &&
		[ "$(cat "$TMP/ctl")" = "enable func:kstrdup" ]; then
		ok "ctl: the words joined, written in one write"
	else
		not_ok "ctl: the words joined, written in one write" "$(cat "$TMP/err")"
	fi
	expect_err "ctl: ENOSPC said as a full rule list" 1 \
		'allocinfo-ext: /dev/full refused "reset": the rule list is full (at most 64 rules; "enable all" removes them all)' \
		"$TOOL" ctl --proc /dev/full reset
	expect_err "ctl: a missing control file said as a module not loaded" 1 \
		"allocinfo-ext: $TMP/none does not exist: is the allocinfo_ext module loaded? (insmod allocinfo_ext.ko)" \
		"$TOOL" ctl --proc "$TMP/none" reset
}

context_tests() {
	expect_out "context: callers of func:, shares of calls and bytes" \
		"$EXP/context.out" "$TOOL" context --stacks stacks.txt \
		--calls stacks-calls.txt func:xas_alloc
	expect_err "context: a malformed stacks line named" 1 \
		'allocinfo-ext: bad-stacks.txt:2: expected "<frame>;...;<frame> <count>"' \
		"$TOOL" context --stacks bad-stacks.txt --calls stacks-calls.txt all
	expect_err "context: off is no selector" 2 \
		"allocinfo-ext: bad selector \"off\": expected all, func:NAME, [MODULE], FUNC+0xOFF or FILE:LINE
Try 'allocinfo-ext context --help'." "$TOOL" context off
}

leaks_tests() {
	local rounds="leaks-t1.txt leaks-l1.txt leaks-t2.txt leaks-l2.txt leaks-t3.txt leaks-l3.txt"
	# shellcheck disable=SC2086
	expect_out "leaks: grew every round and aged by half the interval or more" \
		"$EXP/leaks.out" "$TOOL" leaks -d 10 $rounds
	# shellcheck disable=SC2086
	expect_out "leaks: -l 1, the first site, the header's count all" \
		<(head -n 3 "$EXP/leaks.out") "$TOOL" leaks -l 1 -d 10 $rounds
	expect_err "leaks: lifetimes off said so" 1 \
		"allocinfo-ext: leaks-off.txt: lifetimes are off: load allocinfo_ext with lifetimes=1" \
		"$TOOL" leaks leaks-t1.txt leaks-off.txt leaks-t2.txt leaks-l2.txt
	expect_err "leaks: a malformed lifetimes line named" 1 \
		'allocinfo-ext: stacks.txt:1: expected "allocinfo_ext_lifetimes - version: 1.<n>"' \
		"$TOOL" leaks leaks-t1.txt stacks.txt leaks-t2.txt leaks-l2.txt
	expect_err "leaks: one round is not enough" 2 \
		"allocinfo-ext: leaks takes pairs of files TABLE LIFETIMES, at least two
Try 'allocinfo-ext leaks --help'." "$TOOL" leaks leaks-t1.txt leaks-l1.txt
}

compare_tests() {
	expect_out "compare: by line, by function, theirs only, byte-weighted overall" \
		"$EXP/compare.out" "$TOOL" compare --ours cmp-ours.txt \
		--theirs cmp-theirs.txt --baseline cmp-base.txt
	expect_out "compare: -l 0 prints every site, as top, diff and query" \
		"$EXP/compare.out" "$TOOL" compare -l 0 --ours cmp-ours.txt \
		--theirs cmp-theirs.txt --baseline cmp-base.txt
	expect_out "compare: -l 2, the two largest sites and the overall figure" \
		"$EXP/compare-l2.out" "$TOOL" compare -l 2 --ours cmp-ours.txt \
		--theirs cmp-theirs.txt --baseline cmp-base.txt
	expect_err "compare: needs a baseline" 2 \
		"allocinfo-ext: compare takes --save-baseline FILE, or --baseline FILE
Try 'allocinfo-ext compare --help'." "$TOOL" compare
	expect_err "compare: our table must be ours" 1 \
		"allocinfo-ext: cmp-theirs.txt: expected the allocinfo_ext format" \
		"$TOOL" compare --ours cmp-theirs.txt --theirs cmp-theirs.txt \
		--baseline cmp-base.txt
}

# top -j with each sample's UTC time replaced by "T" when it is one.
top_json_timeless() {
	"$TOOL" top -j "$@" | sed -E 's/"time": "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"/"time": "T"/'
	return "${PIPESTATUS[0]}"
}

# --json of every command that prints a table, against exact outputs
# that the json module parses; the figures are those of the text tests.
json_tests() {
	local f bad=()

	expect_out "json: diff -j, header figures and changed sites" \
		"$EXP/diff.json" "$TOOL" diff -j ext-a.txt ext-b.txt
	expect_out "json: diff -j -a, sites and rows counted apart (kernel format)" \
		"$EXP/diff-kernel.json" "$TOOL" diff --json -a kernel.txt kernel.txt
	expect_out "json: group -j --by subsystem" \
		"$EXP/group-subsystem.json" "$TOOL" group -j --by subsystem ext-a.txt
	expect_out "json: group -j, slack null in the kernel's format" \
		"$EXP/group-kernel.json" "$TOOL" group --json --by function kernel.txt
	expect_out "json: top -j, one line per sample, growth null then 0" \
		"$EXP/top-kernel.json" top_json_timeless -n 2 -d 0.1 -s calls -l 3 kernel.txt
	expect_out "json: leaks -j" "$EXP/leaks.json" "$TOOL" leaks -j -d 10 \
		leaks-t1.txt leaks-l1.txt leaks-t2.txt leaks-l2.txt leaks-t3.txt leaks-l3.txt
	expect_out "json: context -j, shares from 0 to 1" "$EXP/context.json" \
		"$TOOL" context -j --stacks stacks.txt --calls stacks-calls.txt func:xas_alloc
	expect_out "json: compare -j -l 3, overall figures over all sites" \
		"$EXP/compare.json" "$TOOL" compare -j -l 3 --ours cmp-ours.txt \
		--theirs cmp-theirs.txt --baseline cmp-base.txt
	for f in diff diff-kernel group-subsystem group-kernel leaks context compare; do
		python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' \
			"$EXP/$f.json" 2>/dev/null || bad+=("$f.json")
	done
	python3 -c 'import json, sys
assert [json.loads(l)["growth"] for l in open(sys.argv[1])] == [None, 0.0]' \
		"$EXP/top-kernel.json" 2>/dev/null || bad+=(top-kernel.json)
	if [ ${#bad[@]} = 0 ]; then
		ok "json: every expected output parses as JSON"
	else
		not_ok "json: every expected output parses as JSON" "${bad[@]}"
	fi
}

# top_keys KEYS...: send keys to the top session.
top_keys() {
	tmux -L "$TMUX_SOCK" send-keys -t top "$@" 2>/dev/null
}

tmux_screen_lacks() {
	! tmux -L "$TMUX_SOCK" capture-pane -p -t top 2>/dev/null | grep -qF "$1"
}

# The screen's first row of sites (its fifth line) holds $1.
tmux_first_row() {
	tmux -L "$TMUX_SOCK" capture-pane -p -t top | sed -n 5p | grep -qF -- "$1"
}

# Every line of the screen at most $1 columns, title then totals.
tmux_fits() {
	local screen

	screen=$(tmux -L "$TMUX_SOCK" capture-pane -p -t top) &&
		[ "$(printf '%s\n' "$screen" | awk -v w="$1" 'length($0) > w' | wc -l)" = 0 ] &&
		[[ "$(printf '%s\n' "$screen" | sed -n 1p)" == "allocinfo-ext top - "* ]] &&
		[[ "$(printf '%s\n' "$screen" | sed -n 2p)" == "Sites: "* ]]
}

# top_session NAME CMD: CMD in a 100x9 tmux, its screen up; false if not.
top_session() {
	# a server of its own: a new one on a socket being shut down dies
	TOP_SESSIONS=$((${TOP_SESSIONS:-0} + 1))
	TMUX_SOCK=aie-top-$$-$TOP_SESSIONS
	tmux -L "$TMUX_SOCK" new-session -d -s top -x 100 -y 9 "$2" &&
		wait_until 10 tmux_screen_has "sorted by"
}

top_session_end() {
	local name=$1 good=$2

	if [ "$good" = 1 ]; then
		ok "$name"
	else
		not_ok "$name" "$(tmux -L "$TMUX_SOCK" capture-pane -p -t top 2>&1)"
	fi
	tmux -L "$TMUX_SOCK" kill-server 2>/dev/null
}

# The keys of the screen: help, filter, scrolling, pause, delay; a
# resize; a sample that cannot be read, then can again.
top_screen_tests() {
	local name good copy=$TMP/top-table.txt

	name="top: ? shows the keys, any key leaves; / filters by module; empty filter shows all"
	good=0
	if top_session "$name" "$TOOL top -d 0.5 ext-a.txt" &&
		top_keys '?' && wait_until 10 tmux_screen_has "allocinfo-ext top: keys" &&
		top_keys x && wait_until 10 tmux_screen_has "? for help" &&
		top_keys / && wait_until 10 tmux_screen_has "filter (module" &&
		top_keys virtio_net Enter && wait_until 10 tmux_screen_has "filter: virtio_net" &&
		tmux_screen_has "Sites: 2  Live: 8.0K in 2 calls" && tmux_screen_lacks alloc_pipe_info &&
		top_keys / && wait_until 10 tmux_screen_has "filter (module" &&
		top_keys Enter && wait_until 10 tmux_screen_has alloc_pipe_info &&
		tmux_screen_has "Sites: 8"; then
		good=1
	fi
	top_session_end "$name" "$good"

	name="top: Esc cancels a prompt; the filter takes any case"
	good=0
	if top_session "$name" "$TOOL top -d 0.5 ext-a.txt" &&
		top_keys / && wait_until 10 tmux_screen_has "filter (module" &&
		top_keys abc Escape && wait_until 10 tmux_screen_has "? for help" &&
		tmux_screen_lacks "filter" && tmux_screen_has "Sites: 8" &&
		top_keys / VIRTIO_NET Enter && wait_until 10 tmux_screen_has "filter: VIRTIO_NET" &&
		tmux_screen_has "Sites: 2  Live: 8.0K in 2 calls" && tmux_screen_lacks alloc_pipe_info &&
		top_keys d && wait_until 10 tmux_screen_has "delay (seconds)" &&
		top_keys 9 Escape && wait_until 10 tmux_screen_lacks "delay (seconds)" &&
		tmux_screen_has "every 0.5s"; then
		good=1
	fi
	top_session_end "$name" "$good"

	name="top: ^C quits after a / and a d prompt, and while one is open"
	good=0
	if top_session "$name" "$TOOL top -d 0.5 ext-a.txt" &&
		top_keys / ext4 Enter && wait_until 10 tmux_screen_has "filter: ext4" &&
		top_keys d 1 Enter && wait_until 10 tmux_screen_has "every 1.0s" &&
		top_keys C-c && wait_until 10 tmux_gone &&
		top_session "$name" "$TOOL top -d 0.5 ext-a.txt" &&
		top_keys d 1 && wait_until 10 tmux_screen_has "delay (seconds): 1" &&
		top_keys C-c && wait_until 10 tmux_gone; then
		good=1
	fi
	top_session_end "$name" "$good"

	name="top: samples go on while a prompt is open"
	good=0
	cp ext-a.txt "$copy"
	if top_session "$name" "$TOOL top -d 0.2 $copy" &&
		top_keys / kmalloc && wait_until 10 tmux_screen_has "location): kmalloc" &&
		cp kernel.txt "$copy" && wait_until 10 tmux_screen_has alloc_anon_folio &&
		tmux_screen_has "location): kmalloc"; then
		good=1
	fi
	top_session_end "$name" "$good"

	name="top: r takes a sample at once, paused too"
	good=0
	cp ext-a.txt "$copy"
	if top_session "$name" "$TOOL top -d 60 $copy" &&
		top_keys p && wait_until 10 tmux_screen_has "[paused]" &&
		cp kernel.txt "$copy" && sleep 1 && tmux_screen_lacks alloc_anon_folio &&
		top_keys r && wait_until 5 tmux_screen_has alloc_anon_folio &&
		tmux_screen_has "[paused]"; then
		good=1
	fi
	top_session_end "$name" "$good"

	name="top: j, End, Home scroll; p pauses; + and d change the delay"
	good=0
	if top_session "$name" "$TOOL top -d 0.5 ext-a.txt" &&
		tmux_first_row alloc_pipe_info+0x1a2 &&
		top_keys j && wait_until 10 tmux_first_row func:__alloc_skb &&
		top_keys End && wait_until 10 tmux_screen_has virtio_net.c:900 &&
		tmux_screen_lacks alloc_pipe_info && tmux_first_row virtio_net.c:1210 &&
		top_keys Home && wait_until 10 tmux_first_row alloc_pipe_info+0x1a2 &&
		top_keys p && wait_until 10 tmux_screen_has "[paused]" &&
		top_keys p && wait_until 10 tmux_screen_lacks "[paused]" &&
		top_keys + && wait_until 10 tmux_screen_has "every 1.0s" &&
		top_keys d && wait_until 10 tmux_screen_has "delay (seconds)" &&
		top_keys 2.5 Enter && wait_until 10 tmux_screen_has "every 2.5s"; then
		good=1
	fi
	top_session_end "$name" "$good"

	name="top: a resize redraws at the new size, lines cut to the width"
	good=0
	if top_session "$name" "$TOOL top -d 0.5 ext-a.txt" &&
		tmux_screen_lacks 'lib/we"' &&
		tmux -L "$TMUX_SOCK" resize-window -t top -x 66 -y 13 &&
		wait_until 10 tmux_screen_has 'lib/we"' && tmux_fits 66; then
		good=1
	fi
	top_session_end "$name" "$good"

	name="top: a sample that cannot be read is said, the last one stays; then it recovers"
	good=0
	cp ext-a.txt "$copy"
	if top_session "$name" "$TOOL top -d 0.2 $copy" &&
		echo "allocinfo_ext - version: 9.0" >"$copy" &&
		wait_until 10 tmux_screen_has "sample failed at" &&
		tmux_screen_has "format version 9.0 is not supported" &&
		tmux_screen_has alloc_pipe_info &&
		cp kernel.txt "$copy" && wait_until 10 tmux_screen_has alloc_anon_folio &&
		tmux_screen_has "? for help" && top_keys q && wait_until 10 tmux_gone; then
		good=1
	fi
	top_session_end "$name" "$good"

	expect_err "top: a delay under 0.1 s refused (no busy loop)" 2 \
		"allocinfo-ext: bad delay \"0\": seconds, 0.1 to 86400
Try 'allocinfo-ext top --help'." "$TOOL" top -d 0 ext-a.txt
	"$TOOL" top -b -n 1 -s slack kernel.txt >"$TMP/top" 2>&1
	if [[ "$(head -n 1 "$TMP/top")" == *" - sorted by bytes (the kernel's table has no slack) - "* ]]; then
		ok "top: slack of the kernel's table said to be bytes"
	else
		not_ok "top: slack of the kernel's table said to be bytes" "$(cat "$TMP/top")"
	fi
}

# query reads files as text (no ioctl), filtered as the kernel filters.
query_tests() {
	local long name

	expect_out "query: every row of a file, read as text" \
		"$EXP/query.out" "$TOOL" query ext-a.txt
	expect_out "query: -m and --min-bytes together, JSON" \
		"$EXP/query.json" "$TOOL" query -j -m virtio_net --min-bytes 1 ext-a.txt
	expect_out "query: --function, -l" <(printf '%12d %8d %s\n' 2097152 512 \
		"mm/memory.c:4400 func:alloc_anon_folio") \
		"$TOOL" query --function alloc_anon_folio -l 1 kernel.txt
	expect_out "query: --inaccurate keeps the kernel's 2.0 accurate:no rows" \
		<(printf '%12d %8d %s\n' 20480 5 "lib/xarray.c:378 func:xas_alloc accurate:no") \
		"$TOOL" query --inaccurate kernel-2.0.txt
	expect_err "query: --via ioctl on a file fails, no text read" 1 \
		"allocinfo-ext: ext-a.txt: ioctl: Inappropriate ioctl for device (a file, or a kernel or module without the ioctls)" \
		"$TOOL" query --via ioctl ext-a.txt
	expect_err "query: --bench needs the ioctl" 1 \
		"allocinfo-ext: ext-a.txt: ioctl: Inappropriate ioctl for device (a file, or a kernel or module without the ioctls)" \
		"$TOOL" query --bench -n 1 ext-a.txt
	name="query: -v says the text was read"
	if "$TOOL" query -v -m ext4 ext-a.txt 2>"$TMP/err" >/dev/null &&
		[ "$(cat "$TMP/err")" = "allocinfo-ext: ext-a.txt: 1 of 8 rows, through the text" ]; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/err")"
	fi
	# A name of 70 characters: its last 63, as the ioctl gives it.
	long=$(printf 'f%.0s' {1..7})$(printf '%063d' 0 | tr 0 g)
	printf 'allocinfo - version: 1.0\n#     <size>  <calls> <tag info>\n 4096 1 mm/a.c:1 func:%s\n' \
		"$long" >"$TMP/long.txt"
	expect_out "query: names keep their last 63 characters" \
		<(printf '%12d %8d mm/a.c:1 func:%s\n' 4096 1 "${long:7}") \
		"$TOOL" query "$TMP/long.txt"
	expect_out "query: a filter on a cut name matches its cut" \
		<(printf '%12d %8d mm/a.c:1 func:%s\n' 4096 1 "${long:7}") \
		"$TOOL" query --function "${long:7}" "$TMP/long.txt"
}

# module_table FILE MODULE: FILE's version line, comments and the rows of
# MODULE only (vmlinux: rows without one), as a table of its own.
module_table() {
	awk -v m="$2" '/^[^ ]/ { print; next }
		{ has = match($0, / \[[^]]*\] /) }
		(m == "vmlinux" && !has) ||
			(has && substr($0, RSTART + 2, RLENGTH - 4) == m)' "$1"
}

# -m NAME in top, diff, group and export: as if the tables held only
# NAME's sites (the names of the files aside).
module_filter_tests() {
	local m cmd want got failed=()

	for m in virtio_net vmlinux ext4; do
		module_table ext-a.txt "$m" >"$TMP/m-a.txt"
		module_table ext-b.txt "$m" >"$TMP/m-b.txt"
		# @M@ -m NAME, @A@ and @B@ the tables: names no path holds
		for cmd in "group --by function @M@ @A@" "diff -a @M@ @A@ @B@" \
			"top -b -n 1 -l 0 @M@ @A@" "export -f csv @M@ @A@" \
			"export -f prometheus --zeros @M@ @A@"; do
			want=${cmd//@M@ /}
			want=${want//@A@/$TMP/m-a.txt}
			got=${cmd//@M@/-m $m}
			got=${got//@A@/ext-a.txt}
			# shellcheck disable=SC2086
			"$TOOL" ${want//@B@/$TMP/m-b.txt} 2>&1 |
				sed "s|$TMP/m-\([ab]\).txt|ext-\1.txt|g; s/ - [0-9:]* - / - T - /" >"$TMP/want"
			# shellcheck disable=SC2086
			"$TOOL" ${got//@B@/ext-b.txt} 2>&1 | sed 's/ - [0-9:]* - / - T - /' >"$TMP/got"
			if ! cmp -s "$TMP/want" "$TMP/got" || ! grep -q . "$TMP/got"; then
				failed+=("-m $m: $got: $(diff "$TMP/want" "$TMP/got" | head -n 6)")
			fi
		done
	done
	if [ ${#failed[@]} = 0 ]; then
		ok "module: -m in top, diff, group and export keeps that module's sites (vmlinux: built-in)"
	else
		not_ok "module: -m in top, diff, group and export" "${failed[@]}"
	fi
}
