# SPDX-License-Identifier: GPL-2.0
# parse-tests.sh - reading both formats and snapshots, and refusing
# malformed input with the file and line. Sourced by run.sh, run in
# fixtures/.

# Each malformed fixture and the exact message it must get.
MALFORMED=(
	"bad-no-version.txt|no version line before the first row|bad-no-version.txt:1: expected \"allocinfo_ext - version: 1.0\" or \"allocinfo - version: 1.0\", found \"         512        4 mm/util.c:62 func:kstrdup type:slab sl...\""
	"bad-bytes.txt|live bytes not a number|bad-bytes.txt:4: expected live bytes, a number, followed by a space"
	"bad-range.txt|live bytes out of range|bad-range.txt:3: live bytes out of range"
	"bad-no-location.txt|row without a location|bad-no-location.txt:3: expected a location (file:line or function+offset) after the calls"
	"bad-no-func.txt|row without func:|bad-no-func.txt:5: expected \"func:<name>\" after the location"
	"bad-unknown-field.txt|unknown field in version 1.0|bad-unknown-field.txt:3: unknown field \"colour:blue\""
	"bad-field-value.txt|field with a bad value|bad-field-value.txt:3: bad value in \"slack:lots\""
	"bad-missing-fields.txt|row missing fields|bad-missing-fields.txt:3: missing fields: a row has type, slack, total_calls, total_bytes, peak and failed"
	"bad-kernel-extra.txt|kernel row with a stray word|bad-kernel-extra.txt:2: unexpected \"extra\" after func:kstrdup"
	"bad-version.txt|unsupported major version|bad-version.txt:1: format version 2.0 is not supported (this tool reads 1.x)"
	"bad-version-wrap.txt|a minor version past INT_MAX, not wrapped to 1.0|bad-version-wrap.txt:1: bad version \"1.4294967296\": a number past 2147483647"
	"bad-two-tables.txt|two tables in one file|bad-two-tables.txt:4: a second version line: two tables in one input?"
	"bad-nul.txt|binary data|bad-nul.txt:4: binary data (a NUL byte): not a text table"
	"bad-unloaded-1.0.txt|\"unloaded\" in a 1.0 table|bad-unloaded-1.0.txt:3: unknown field \"unloaded\""
	"bad-accounted.txt|accounted: with a bad value in 1.2|bad-accounted.txt:3: bad value in \"accounted:lots\""
	"bad-node-twice.txt|a node key given twice in 1.4|bad-node-twice.txt:2: field \"node0:\" given twice"
	"bad-node-id.txt|a node id past 1023 in 1.4|bad-node-id.txt:2: bad node field \"node1024:256\""
	"oom-cut.txt|an OOM report's row cut short, at the log's line|oom-cut.txt:8: missing fields: a row has type, slack, total_calls, total_bytes, peak and failed"
	"oom-short.txt|a log that ends inside its OOM report|oom-short.txt:5: the OOM report has 1 of its 3 rows: the log ends before the rest"
	"oom-bad-header.txt|an OOM report's header without its count|oom-bad-header.txt:5: expected \"oom: victim <comm> (<pid>): top <n> of ...\""
	"oom-none.txt|dmesg without an OOM report|oom-none.txt: a kernel log without an OOM report of allocinfo_ext (no \"allocinfo_ext: oom: victim\" line)"
	"oom-journal.txt|journalctl -k without an OOM report|oom-journal.txt: a kernel log without an OOM report of allocinfo_ext (no \"allocinfo_ext: oom: victim\" line)"
	"oom-none-t.txt|dmesg -t (no time) without an OOM report|oom-none-t.txt: a kernel log without an OOM report of allocinfo_ext (no \"allocinfo_ext: oom: victim\" line)"
	"oom-none-x.txt|dmesg -x (facility and level) without an OOM report|oom-none-x.txt: a kernel log without an OOM report of allocinfo_ext (no \"allocinfo_ext: oom: victim\" line)"
	"oom-none-r.txt|dmesg -r (raw) without an OOM report|oom-none-r.txt: a kernel log without an OOM report of allocinfo_ext (no \"allocinfo_ext: oom: victim\" line)"
	"bad-empty.txt|snapshot head without a table|bad-empty.txt: no version line: not /proc/allocinfo_ext, /proc/allocinfo or a snapshot of either"
)

parse_tests() {
	local m file what msg

	expect_out "parse: allocinfo_ext rows, every field" \
		"$EXP/ext-a.csv" "$TOOL" export -f csv ext-a.txt
	expect_out "parse: a saved kernel log, its last OOM report's rows" \
		"$EXP/oom-dmesg.csv" "$TOOL" export -f csv oom-dmesg.txt
	expect_out "parse: an OOM report whose victim's name has a space (Web Content)" \
		"$EXP/oom-dmesg.csv" "$TOOL" export -f csv oom-web.txt
	expect_out "parse: an OOM report whose victim's name has parentheses ((sd-pam))" \
		"$EXP/oom-dmesg.csv" "$TOOL" export -f csv oom-parens.txt
	expect_out "parse: /proc/allocinfo rows, trailing space, later kernels' key:value" \
		"$EXP/kernel.csv" "$TOOL" export -f csv kernel.txt
	expect_out "parse: the kernel's 2.0 rows (7.3), accurate:no skipped" \
		"$EXP/kernel.csv" "$TOOL" export -f csv kernel-2.0.txt
	expect_out "parse: fields of a later minor version are skipped" \
		"$EXP/ext-minor.csv" "$TOOL" export -f csv ext-minor.txt
	expect_out "parse: 1.1 marks a site of a module that unloaded" \
		"$EXP/ext-unloaded.json" "$TOOL" export -f json ext-unloaded.txt
	expect_out "parse: 1.2 gives accounted bytes; later fields still skipped" \
		"$EXP/ext-accounted.json" "$TOOL" export -f json ext-accounted.txt
	expect_out "parse: csv has unloaded, 0 or 1" \
		"$EXP/ext-unloaded.csv" "$TOOL" export -f csv ext-unloaded.txt
	expect_out "parse: csv has accounted, empty before 1.2" \
		"$EXP/ext-accounted.csv" "$TOOL" export -f csv ext-accounted.txt
	expect_out "parse: 1.4 node keys, csv columns per node id, empty where absent" \
		"$EXP/ext-numa.csv" "$TOOL" export -f csv ext-numa.txt
	expect_out "parse: 1.4 node keys in json as nodes" \
		"$EXP/ext-numa.json" "$TOOL" export -f json ext-numa.txt
	for m in "${MALFORMED[@]}"; do
		IFS='|' read -r file what msg <<<"$m"
		expect_err "parse: malformed input: $what" 1 "allocinfo-ext: $msg" \
			"$TOOL" export -f csv "$file"
	done
	expect_err "parse: a missing file is named" 1 \
		"allocinfo-ext: cannot read no-such.txt: No such file or directory" \
		"$TOOL" group --by module no-such.txt
}

snapshot_tests() {
	local s=$TMP/a.snap s2=$TMP/b.snap head want

	"$TOOL" snapshot -o "$s" ext-a.txt 2>"$TMP/err"
	head=$(head -n 6 "$s")
	want="^# allocinfo-ext snapshot
# time: [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z
# kernel: $(uname -r | sed 's/[.+]/\\&/g')
# uptime: [0-9]+\.[0-9]+
# module_version: [^ ].*
# source: ext-a\.txt$"
	if [[ "$head" =~ $want ]] && cmp -s <(tail -n +7 "$s") ext-a.txt; then
		ok "snapshot: head of time, kernel, uptime, module version, source; table verbatim"
	else
		not_ok "snapshot: head of time, kernel, uptime, module version, source; table verbatim" \
			"$head" "$(cat "$TMP/err")"
	fi
	expect_out "snapshot: read back like its source" "$EXP/ext-a.csv" \
		"$TOOL" export -f csv "$s"
	"$TOOL" snapshot -o "$s2" "$s" 2>"$TMP/err"
	if [ "$(grep -c '^# allocinfo-ext snapshot' "$s2")" = 1 ] &&
		grep -qx "# source: $s" "$s2" && cmp -s <(tail -n +7 "$s2") ext-a.txt; then
		ok "snapshot: of a snapshot has one head, the new one"
	else
		not_ok "snapshot: of a snapshot has one head, the new one" "$(cat "$s2")"
	fi
	"$TOOL" snapshot --kernel 6.1.0-test+x --uptime 5400.25 ext-a.txt \
		>"$TMP/s3" 2>"$TMP/err"
	if [ "$(sed -n '3,4p' "$TMP/s3")" = "# kernel: 6.1.0-test+x
# uptime: 5400.25" ] && [ ! -s "$TMP/err" ] &&
		cmp -s <(tail -n +7 "$TMP/s3") ext-a.txt &&
		[ "$("$TOOL" export -f json "$TMP/s3" | grep -c '"kernel": "6.1.0-test+x", "uptime": 5400.25')" = 1 ]; then
		ok "snapshot: --kernel and --uptime stamp a copied file, read back"
	else
		not_ok "snapshot: --kernel and --uptime stamp a copied file, read back" \
			"$(head -n 7 "$TMP/s3")" "$(cat "$TMP/err")"
	fi
	expect_err "snapshot: --kernel with a space refused" 2 \
		"allocinfo-ext: bad kernel release \"6.1 x\": at most 64 characters, no space or control character
Try 'allocinfo-ext snapshot --help'." "$TOOL" snapshot --kernel "6.1 x" ext-a.txt
	expect_err "snapshot: --uptime not seconds refused" 2 \
		"allocinfo-ext: bad uptime \"1e3\": seconds, such as 1234.56
Try 'allocinfo-ext snapshot --help'." "$TOOL" snapshot --uptime 1e3 ext-a.txt
}
