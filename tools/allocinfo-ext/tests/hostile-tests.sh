# SPDX-License-Identifier: GPL-2.0
# hostile-tests.sh - every machine-readable output valid whatever the
# input: names that are not UTF-8, control characters, XML's special
# characters, figures whose sums would overflow, truncated rows, a NUL,
# a directory, a full disk. Outputs are read back by promtool, Python's
# json, csv and xml.etree, all decoding UTF-8 strictly. Sourced by run.sh,
# run in fixtures/.

# hostile-utf8.txt: bad\xffname and bad\xfename (one name once replaced),
# café [möd], an overlong form, a surrogate and a cut sequence, <&"'>,
# control characters and U+FFFE, and a row of -4096 bytes.

# py_check NAME FILE SCRIPT: SCRIPT (Python, FILE is sys.argv[1]) exits 0.
py_check() {
	local name=$1 file=$2 script=$3

	if python3 -c "$script" "$file" >"$TMP/py" 2>&1; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/py")"
	fi
}

hostile_utf8_tests() {
	local f=hostile-utf8.txt

	if "$TOOL" export -f json "$f" >"$TMP/h.json" 2>"$TMP/err" && [ ! -s "$TMP/err" ]; then
		py_check "hostile: json of names that are not UTF-8 parses, bytes replaced by U+FFFD" \
			"$TMP/h.json" 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
s = d["sites"]
assert [x["func"] for x in s] == ["bad\ufffdname", "bad\ufffdname", "caf\u00e9",
	"s\ufffd\ufffd\ufffdt", "amp&lt;", "f\ufffeg", "neg"], s
assert s[0]["site"] == "mm/bad\ufffd.c:10" and s[0]["file"] == "mm/bad\ufffd.c"
assert s[2]["module"] == "m\u00f6d"
assert s[3]["site"] == "x\ufffd\ufffdy+0x1/0x10" and s[3]["type"] == "t\ufffd\ufffd"
assert s[4]["site"] == "drivers/<a>&\"b\u0027/x.c:3"
assert s[5]["site"] == "ctl\x01\x1b\x7f.c:1"
assert s[6]["bytes"] == -4096'
	else
		not_ok "hostile: json of names that are not UTF-8" "$(cat "$TMP/err")"
	fi
	if "$TOOL" export -f csv "$f" >"$TMP/h.csv" 2>"$TMP/err" && [ ! -s "$TMP/err" ]; then
		py_check "hostile: csv of names that are not UTF-8 reads back, bytes replaced" \
			"$TMP/h.csv" 'import csv, sys
r = list(csv.reader(open(sys.argv[1], encoding="utf-8", newline="")))
assert len(r) == 8 and all(len(x) == len(r[0]) for x in r), r
assert [x[6] for x in r[1:]] == ["bad\ufffdname", "bad\ufffdname", "caf\u00e9",
	"s\ufffd\ufffd\ufffdt", "amp&lt;", "f\ufffeg", "neg"], r
assert r[3][5] == "m\u00f6d" and r[5][2] == "drivers/<a>&\"b\u0027/x.c:3"'
	else
		not_ok "hostile: csv of names that are not UTF-8" "$(cat "$TMP/err")"
	fi
	"$TOOL" export -f prometheus --site-label "$f" >"$TMP/h.prom" 2>"$TMP/err"
	"$TOOL" export -f prometheus --zeros "$f" >"$TMP/h2.prom" 2>>"$TMP/err"
	if promtool check metrics <"$TMP/h.prom" >"$TMP/out" 2>&1 &&
		promtool check metrics <"$TMP/h2.prom" >>"$TMP/out" 2>&1 &&
		[ ! -s "$TMP/err" ] &&
		[ "$(grep -c '^allocinfo_ext_bytes{func="bad�name"' "$TMP/h.prom")" = 1 ] &&
		grep -qxF 'allocinfo_ext_bytes{func="bad�name",file="mm/bad�.c",line="10",type="slab",site="mm/bad�.c:10"} 6144' "$TMP/h.prom" &&
		grep -qxF 'allocinfo_ext_bytes{func="s���t",type="t��",site="x��y+0x1/0x10"} 512' "$TMP/h.prom"; then
		ok "hostile: prometheus labels valid UTF-8, promtool agrees; names equal once replaced summed"
	else
		not_ok "hostile: prometheus labels valid UTF-8" "$(cat "$TMP/err" "$TMP/out")" \
			"$(grep 'bad' "$TMP/h.prom")"
	fi
	if "$TOOL" report -o "$TMP/h.svg" "$f" 2>"$TMP/err" && [ ! -s "$TMP/err" ]; then
		py_check "hostile: SVG of hostile names is well-formed XML, text replaced or escaped" \
			"$TMP/h.svg" 'import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
t = [x.text.split("\n")[0] for x in root.iter(ns + "title")]
assert t.count("mm/bad\ufffd.c:10 func:bad\ufffdname") == 2, t
assert "lib/caf\u00e9.c:7 [m\u00f6d] func:caf\u00e9" in t, t
assert "drivers/<a>&\"b\u0027/x.c:3 func:amp&lt;" in t, t
assert "ctl\x7f.c:1 func:f\ufffdg" in t, t
assert not any("neg" in x for x in t), t'
	else
		not_ok "hostile: SVG of hostile names" "$(cat "$TMP/err")"
	fi
}

# Each input refused, and the message it must get.
HOSTILE_REFUSED=(
	"hostile-huge.txt|hostile-huge.txt:2: live bytes add up to more than 2^61 (in absolute value) by this row: refused, as sums of them would overflow"
	"hostile-limit1.txt|hostile-limit1.txt:3: live bytes add up to more than 2^61 (in absolute value) by this row: refused, as sums of them would overflow"
	"hostile-negative.txt|hostile-negative.txt:2: live bytes add up to more than 2^61 (in absolute value) by this row: refused, as sums of them would overflow"
	"hostile-calls.txt|hostile-calls.txt:2: live calls add up to more than 2^61 (in absolute value) by this row: refused, as sums of them would overflow"
	"hostile-truncated.txt|hostile-truncated.txt:3: unknown field \"total_ca\""
	"hostile-truncated-row.txt|hostile-truncated-row.txt:2: expected live bytes, a number, followed by a space"
	"bad-nul.txt|bad-nul.txt:4: binary data (a NUL byte): not a text table"
	"DIR|cannot read DIR: Is a directory"
)

# Every command that reads a table, with @ where the table goes.
HOSTILE_COMMANDS=(
	"group --by module @"
	"diff @ ext-a.txt"
	"diff ext-a.txt @"
	"top -b -n 1 @"
	"export -f json @"
	"export -f csv @"
	"export -f prometheus @"
	"report -o - @"
	"snapshot @"
	"leaks @ leaks-l1.txt leaks-t2.txt leaks-l2.txt"
	"compare --ours @ --theirs cmp-theirs.txt --baseline cmp-base.txt"
	"compare --ours cmp-ours.txt --theirs cmp-theirs.txt --baseline @"
	"query @"
)

hostile_refused_tests() {
	local dir=$TMP/hostile-dir r file msg cmd bad failed

	mkdir -p "$dir"
	for r in "${HOSTILE_REFUSED[@]}"; do
		IFS='|' read -r file msg <<<"$r"
		[ "$file" = DIR ] && file=$dir
		msg=${msg//DIR/$dir}
		failed=()
		for cmd in "${HOSTILE_COMMANDS[@]}"; do
			# shellcheck disable=SC2086
			set -- ${cmd//@/$file}
			"$TOOL" "$@" >"$TMP/out" 2>"$TMP/err"
			bad=$?
			if [ "$bad" != 1 ] || [ -s "$TMP/out" ] ||
				[ "$(cat "$TMP/err")" != "allocinfo-ext: $msg" ]; then
				failed+=("$*: exit $bad, stderr $(cat "$TMP/err")")
			fi
		done
		if [ ${#failed[@]} = 0 ]; then
			ok "hostile: ${file##*/} refused by every command: $msg"
		else
			not_ok "hostile: ${file##*/} refused by every command" \
				"want: allocinfo-ext: $msg" "${failed[@]}"
		fi
	done
	rm -f "$TMP/h-out.json"
	"$TOOL" export -f json -o "$TMP/h-out.json" hostile-huge.txt 2>/dev/null
	if [ $? = 1 ] && [ ! -e "$TMP/h-out.json" ] &&
		[ -z "$(ls "$TMP"/h-out.json.tmp.* 2>/dev/null)" ]; then
		ok "hostile: a refused table writes no -o file, no temporary"
	else
		not_ok "hostile: a refused table writes no -o file, no temporary"
	fi
	expect_out "hostile: figures summing to 2^61 exactly are accepted" \
		<(printf '%s\n' \
			"# allocinfo-ext group --by module: hostile-limit.txt, 1 sites, 2305843009213693952 live bytes" \
			"#        bytes      calls      slack  sites module" \
			"2305843009213693952          1         16      1 vmlinux") \
		"$TOOL" group --by module hostile-limit.txt
}

# Every command that writes to stdout, given a full disk.
hostile_full_tests() {
	local cmd failed=() rc
	local cmds=(
		"group --by module ext-a.txt"
		"diff ext-a.txt ext-b.txt"
		"top -b -n 1 ext-a.txt"
		"export -f json ext-a.txt"
		"export -f csv ext-a.txt"
		"export -f prometheus ext-a.txt"
		"report -o - ext-a.txt"
		"snapshot ext-a.txt"
		"context --stacks stacks.txt --calls stacks-calls.txt all"
		"leaks leaks-t1.txt leaks-l1.txt leaks-t2.txt leaks-l2.txt"
		"compare --ours cmp-ours.txt --theirs cmp-theirs.txt --baseline cmp-base.txt"
		"ctl --dry-run reset"
		"query ext-a.txt"
	)

	for cmd in "${cmds[@]}"; do
		# shellcheck disable=SC2086
		"$TOOL" $cmd >/dev/full 2>"$TMP/err"
		rc=$?
		if [ "$rc" != 1 ] || [ "$(cat "$TMP/err")" != \
			"allocinfo-ext: cannot write the output: No space left on device" ]; then
			failed+=("$cmd: exit $rc, stderr $(cat "$TMP/err")")
		fi
	done
	if [ ${#failed[@]} = 0 ]; then
		ok "hostile: every command writing to /dev/full says so and exits 1"
	else
		not_ok "hostile: every command writing to /dev/full says so and exits 1" \
			"${failed[@]}"
	fi
	"$TOOL" export -f csv -o "$TMP/no-such-dir/a.csv" ext-a.txt >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" = 1 ] && [ "$(cat "$TMP/err")" = \
		"allocinfo-ext: cannot write $TMP/no-such-dir/a.csv: No such file or directory" ]; then
		ok "hostile: -o into a missing directory says so and exits 1"
	else
		not_ok "hostile: -o into a missing directory says so and exits 1" \
			"exit $rc" "$(cat "$TMP/err")"
	fi
}

# --json of the analysis commands on names that are not UTF-8.
hostile_json_tests() {
	local cmd failed=() f=hostile-utf8.txt

	printf 'a\377;b\300 10\nc;d\355\240\200 5\n' >"$TMP/h-stacks"
	for cmd in "group -j --by function $f" "diff -j -a ext-a.txt $f" \
		"top -j -n 1 -l 0 $f" "query -j $f" "context -j --stacks $TMP/h-stacks --calls $TMP/h-stacks all"; do
		# shellcheck disable=SC2086
		if ! "$TOOL" $cmd >"$TMP/h.json" 2>"$TMP/err" || [ -s "$TMP/err" ] ||
			! python3 -c 'import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert "\ufffd" in json.dumps(d, ensure_ascii=False)' "$TMP/h.json" 2>>"$TMP/err"; then
			failed+=("$cmd: $(cat "$TMP/err")")
		fi
	done
	if [ ${#failed[@]} = 0 ]; then
		ok "hostile: --json of group, diff, top, context parses, bytes replaced"
	else
		not_ok "hostile: --json of group, diff, top, context parses, bytes replaced" \
			"${failed[@]}"
	fi
}

# The text outputs, and the messages, write control characters and bytes
# that are not UTF-8 as \xHH: a name cannot drive the terminal.
hostile_text_tests() {
	local cmd failed=() f=hostile-utf8.txt

	expect_out "hostile: text names with control characters and stray bytes as \\xHH (query)" \
		"$EXP/hostile-query.out" "$TOOL" query "$f"
	printf 'a\377;b\300 10\nc;d\033[2J 5\n' >"$TMP/h-stacks"
	for cmd in "group --by function $f" "group --by file $f" "diff -a ext-a.txt $f" \
		"top -b -n 1 -l 0 $f" "context --stacks $TMP/h-stacks --calls $TMP/h-stacks all"; do
		# shellcheck disable=SC2086
		if ! "$TOOL" $cmd >"$TMP/h.txt" 2>"$TMP/err" || [ -s "$TMP/err" ] ||
			! python3 -c 'import re, sys
t = open(sys.argv[1], "rb").read().decode("utf-8")
assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", t), repr(t)
assert "\\x" in t, t' "$TMP/h.txt" 2>>"$TMP/err"; then
			failed+=("$cmd: $(cat "$TMP/err")")
		fi
	done
	if [ ${#failed[@]} = 0 ]; then
		ok "hostile: group, diff, top -b, context write no control character, only UTF-8"
	else
		not_ok "hostile: group, diff, top -b, context write no control character, only UTF-8" \
			"${failed[@]}"
	fi
	printf '\033]0;owned\007 1 1 x\n' >"$TMP/h-esc.txt"
	expect_err "hostile: a message quoting the input writes its escapes as \\xHH" 1 \
		"allocinfo-ext: $TMP/h-esc.txt:1: expected \"allocinfo_ext - version: 1.0\" or \"allocinfo - version: 1.0\", found \"\\x1b]0;owned\\x07 1 1 x\"" \
		"$TOOL" export -f csv "$TMP/h-esc.txt"
}

# File names past 4095 bytes stay whole: cut, two sites would merge.
hostile_long_file_tests() {
	local name="hostile: file names of 5000 bytes kept whole in prometheus, json, csv, group"
	local dir

	dir=$(printf 'd%.0s' {1..4990})
	printf 'allocinfo_ext - version: 1.0\n%s\n%s\n' \
		"  4096 1 $dir/a.c:1 func:f type:slab slack:0 total_calls:1 total_bytes:4096 peak:4096 failed:0" \
		"  8192 2 $dir/b.c:1 func:f type:slab slack:0 total_calls:2 total_bytes:8192 peak:8192 failed:0" \
		>"$TMP/h-long.txt"
	"$TOOL" export -f prometheus "$TMP/h-long.txt" >"$TMP/h-long.prom" 2>"$TMP/err"
	"$TOOL" export -f json "$TMP/h-long.txt" >"$TMP/h-long.json" 2>>"$TMP/err"
	"$TOOL" export -f csv "$TMP/h-long.txt" >"$TMP/h-long.csv" 2>>"$TMP/err"
	"$TOOL" group --by file "$TMP/h-long.txt" >"$TMP/h-long.group" 2>>"$TMP/err"
	if [ ! -s "$TMP/err" ] &&
		grep -qxF "allocinfo_ext_bytes{func=\"f\",file=\"$dir/a.c\",line=\"1\",type=\"slab\"} 4096" "$TMP/h-long.prom" &&
		grep -qxF "allocinfo_ext_bytes{func=\"f\",file=\"$dir/b.c\",line=\"1\",type=\"slab\"} 8192" "$TMP/h-long.prom" &&
		python3 -c 'import csv, json, sys
d = json.load(open(sys.argv[1]))
assert [x["file"] for x in d["sites"]] == [sys.argv[3] + "/a.c", sys.argv[3] + "/b.c"]
r = list(csv.reader(open(sys.argv[2])))
assert [x[3] for x in r[1:]] == [sys.argv[3] + "/a.c", sys.argv[3] + "/b.c"]' \
			"$TMP/h-long.json" "$TMP/h-long.csv" "$dir" 2>"$TMP/err" &&
		[ "$(grep -c "^ *[0-9].* $dir/[ab].c$" "$TMP/h-long.group")" = 2 ]; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/err")" "$(grep -c '^allocinfo_ext_bytes' "$TMP/h-long.prom") series"
	fi
}

hostile_tests() {
	hostile_long_file_tests
	hostile_utf8_tests
	hostile_text_tests
	hostile_json_tests
	hostile_refused_tests
	hostile_full_tests
}
