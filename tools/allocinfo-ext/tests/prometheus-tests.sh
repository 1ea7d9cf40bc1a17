# SPDX-License-Identifier: GPL-2.0
# prometheus-tests.sh - the Prometheus export read by a real
# node_exporter (textfile collector) and scraped by a real Prometheus,
# both Debian's, on free loopback ports, stopped at the end. Waits are
# bounded; nothing but 127.0.0.1 is contacted. Sourced by run.sh.

# Two free TCP ports on 127.0.0.1.
prom_ports() {
	python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])'
}

prom_exporter_ok() {
	curl -sf --max-time 5 "http://127.0.0.1:$PROM_NE_PORT/metrics" >"$TMP/ne.metrics" &&
		grep -qx 'node_textfile_scrape_error 0' "$TMP/ne.metrics" &&
		grep -q '^allocinfo_ext_bytes{.*func="alloc_pipe_info".*} 245760$' "$TMP/ne.metrics"
}

# The value and file label of allocinfo_ext_bytes for func $1, by PromQL.
prom_query() {
	curl -sf --max-time 5 --get \
		--data-urlencode "query=allocinfo_ext_bytes{func=\"$1\"}" \
		"http://127.0.0.1:$PROM_PORT/api/v1/query" >"$TMP/query.json" &&
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["data"]["result"]
assert len(r) == 1
print(r[0]["value"][1], r[0]["metric"].get("file", ""))' "$TMP/query.json"
}

# The value of the recording rule's series for subsystem $1.
prom_subsystem() {
	curl -sf --max-time 5 --get \
		--data-urlencode "query=subsystem:allocinfo_ext_bytes:sum{subsystem=\"$1\"}" \
		"http://127.0.0.1:$PROM_PORT/api/v1/query" >"$TMP/query.json" &&
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["data"]["result"]
assert len(r) == 1
print(r[0]["value"][1])' "$TMP/query.json"
}

prom_subsystem_is() {
	[ "$(prom_subsystem "$1" 2>/dev/null)" = "$2" ]
}

prom_query_is() {
	[ "$(prom_query "$1" 2>/dev/null)" = "$2" ]
}

prom_stop() {
	local pid
	for pid in "$@"; do
		kill "$pid" 2>/dev/null
	done
	for pid in "$@"; do
		wait "$pid" 2>/dev/null
	done
}

prometheus_tests() {
	local dir=$TMP/prom ne_pid pr_pid

	mkdir -p "$dir/textfile" "$dir/data"
	"$TOOL" export -f prometheus -o "$dir/textfile/allocinfo_ext.prom" ext-a.txt
	# Names that are not UTF-8: one bad file would drop them all. Its
	# series only: its totals and info would be a second allocinfo_ext's,
	# the same series as ext-a's, which node_exporter refuses
	"$TOOL" export -f prometheus hostile-utf8.txt |
		grep -v '^allocinfo_ext_\(sites\|table_bytes\|info\|export_timestamp_seconds\){' \
		>"$dir/textfile/hostile.prom"
	read -r PROM_NE_PORT PROM_PORT < <(prom_ports)
	prometheus-node-exporter --web.listen-address="127.0.0.1:$PROM_NE_PORT" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$dir/textfile" >"$dir/ne.log" 2>&1 &
	ne_pid=$!
	cat >"$dir/prometheus.yml" <<-EOT
	global:
	  scrape_interval: 1s
	  evaluation_interval: 1s
	rule_files: ['$HERE/../prometheus/allocinfo-ext.rules.yml']
	scrape_configs:
	  - job_name: allocinfo
	    static_configs:
	      - targets: ['127.0.0.1:$PROM_NE_PORT']
	EOT
	prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
		--web.listen-address="127.0.0.1:$PROM_PORT" >"$dir/prometheus.log" 2>&1 &
	pr_pid=$!
	if wait_until 30 prom_exporter_ok; then
		ok "prometheus: node_exporter's textfile collector reads the export"
	else
		not_ok "prometheus: node_exporter's textfile collector reads the export" \
			"$(grep -E 'textfile|allocinfo_ext_bytes' "$TMP/ne.metrics" | head -n 5)" \
			"$(tail -n 5 "$dir/ne.log")"
	fi
	if wait_until 60 prom_query_is alloc_pipe_info "245760 " &&
		prom_query_is odd_name '512 lib/we"ird\path,x.c' &&
		prom_query_is café '1024 lib/café.c' &&
		# PromQL refuses a U+FFFD in a string: an escape it takes
		prom_query_is 'bad\ufffdname' '6144 mm/bad�.c'; then
		ok "prometheus: PromQL returns a site's bytes, labels unescaped intact, U+FFFD for bytes not UTF-8"
	else
		not_ok "prometheus: PromQL returns a site's bytes, labels unescaped intact" \
			"$(cat "$TMP/query.json" 2>/dev/null)" "$(tail -n 5 "$dir/prometheus.log")"
	fi
	# vmlinux: 245760 of ext-a, 512 + 128 of hostile-utf8 (no directory);
	# mm: 12288 of ext-a, 6144 and -4096 of hostile-utf8
	if wait_until 30 prom_subsystem_is drivers/net 8192 &&
		prom_subsystem_is vmlinux 246400 && prom_subsystem_is mm 14336; then
		ok "prometheus: the recording rules sum the scraped series per subsystem"
	else
		not_ok "prometheus: the recording rules sum the scraped series per subsystem" \
			"$(cat "$TMP/query.json" 2>/dev/null)" "$(grep -i rule "$dir/prometheus.log" | tail -n 5)"
	fi
	# /proc/allocinfo's export beside /proc/allocinfo_ext's (after the
	# rules' sums, which would count both). A series in both files is
	# logged by node_exporter as "collected before" and dropped, while
	# node_textfile_scrape_error stays 0: its log is read too.
	"$TOOL" export -f prometheus -o "$dir/textfile/allocinfo.prom" kernel.txt
	if prom_exporter_ok && ! grep -q 'collected before' "$dir/ne.log" &&
		grep -q '^allocinfo_ext_table_bytes{source="allocinfo"} 2.260992e+06$' "$TMP/ne.metrics" &&
		grep -qx 'allocinfo_ext_sites{source="allocinfo"} 6' "$TMP/ne.metrics" &&
		grep -q '^allocinfo_ext_table_bytes{source="allocinfo_ext"} ' "$TMP/ne.metrics" &&
		grep -qx 'allocinfo_ext_info{source="allocinfo",version="1.0"} 1' "$TMP/ne.metrics" &&
		grep -q '^allocinfo_ext_info{source="allocinfo_ext",version="1.' "$TMP/ne.metrics"; then
		ok "prometheus: the exports of both files side by side, totals and info told apart by source"
	else
		not_ok "prometheus: the exports of both files side by side" \
			"$(grep -E 'allocinfo_ext_(sites|table_bytes|info)' "$TMP/ne.metrics")" \
			"$(grep -i 'collected before' "$dir/ne.log" | head -c 2000)"
	fi
	prom_stop "$ne_pid" "$pr_pid"
}

# The recording rules: promtool's checks, its unit tests, and the
# subsystems of the rules against those of `group --by subsystem` on the
# series export writes of a fixture.
prom_rules_tests() {
	local rules=$HERE/../prometheus/allocinfo-ext.rules.yml

	if promtool check rules "$rules" >"$TMP/out" 2>&1; then
		ok "prometheus: promtool check rules passes the recording rules"
	else
		not_ok "prometheus: promtool check rules passes the recording rules" "$(cat "$TMP/out")"
	fi
	if promtool test rules "$HERE/prometheus-rules-test.yml" >"$TMP/out" 2>&1; then
		ok "prometheus: promtool test rules: subsystems, sums and exported share"
	else
		not_ok "prometheus: promtool test rules: subsystems, sums and exported share" \
			"$(cat "$TMP/out")"
	fi
	"$TOOL" export -f prometheus ext-b.txt >"$TMP/rules.prom" &&
		"$TOOL" group -j --by subsystem ext-b.txt >"$TMP/rules.json" &&
		python3 - "$TMP/rules.prom" "$TMP/rules.json" "$rules" >"$TMP/rules-test.yml" <<-'EOT'
	import json, sys
	series = [l.split(" ") for l in open(sys.argv[1], encoding="utf-8")
	          if l.startswith("allocinfo_ext_bytes{")]
	groups = json.load(open(sys.argv[2], encoding="utf-8"))["groups"]
	print("rule_files: [%s]\ntests:\n  - interval: 1m\n    input_series:" % json.dumps(sys.argv[3]))
	for name, value in series:
	    print("      - series: %s\n        values: '%s'" % (
	        json.dumps('allocinfo_ext_bytes{job="n",instance="h",' + name[len("allocinfo_ext_bytes{"):]),
	        value.strip()))
	print("    promql_expr_test:\n      - expr: subsystem:allocinfo_ext_bytes:sum\n        eval_time: 0m\n        exp_samples:")
	for g in groups:
	    if g["bytes"]:
	        print("          - labels: %s\n            value: %d" % (json.dumps(
	            'subsystem:allocinfo_ext_bytes:sum{job="n",instance="h",subsystem=%s}' % json.dumps(g["name"])),
	            g["bytes"]))
	EOT
	if promtool test rules "$TMP/rules-test.yml" >"$TMP/out" 2>&1; then
		ok "prometheus: the rules' subsystems are those of group --by subsystem"
	else
		not_ok "prometheus: the rules' subsystems are those of group --by subsystem" \
			"$(cat "$TMP/out")" "$(head -n 40 "$TMP/rules-test.yml")"
	fi
}

# The file the export writes has one name wherever it is given: the
# installed service's. Two names in one textfile directory export every
# series twice, and node_exporter refuses the second.
prom_name_tests() {
	local top=$HERE/../../.. src names bad=()
	local name="prometheus: one .prom name in README, the docs, the man page, --help and the service"

	"$TOOL" --help >"$TMP/allocinfo-ext --help" 2>&1
	"$TOOL" export --help >"$TMP/allocinfo-ext export --help" 2>&1
	for src in "$top/README" "$top"/Documentation/*.rst "$MAN" "$TMP/allocinfo-ext --help" \
		"$TMP/allocinfo-ext export --help" \
		"$HERE/../systemd/allocinfo-ext-export.service.in"; do
		names=$(grep -o '[A-Za-z0-9_.-]*\.prom\b' "$src" | sort -u | tr '\n' ' ')
		case $src in
		*.rst) [ -z "$names" ] && continue ;;
		esac
		[ "$names" = "allocinfo_ext.prom " ] || bad+=("${src##*/}: ${names:-none}")
	done
	if [ ${#bad[@]} = 0 ]; then
		ok "$name"
	else
		not_ok "$name" "want allocinfo_ext.prom only, found:" "${bad[@]}"
	fi
}

# allocinfo_ext_export_timestamp_seconds: a snapshot's time, exactly; a
# snapshot taken now, between the clock before and after; none for a file
# without a head, whose time is unknown.
prom_timestamp_tests() {
	local before after got

	expect_out "prometheus: the export timestamp is the snapshot's time" \
		<(printf '# HELP allocinfo_ext_export_timestamp_seconds When the figures were taken, in seconds since the epoch.\n# TYPE allocinfo_ext_export_timestamp_seconds gauge\nallocinfo_ext_export_timestamp_seconds{source="allocinfo_ext"} %s\n' \
			"$(date -d 2026-11-21T10:40:00Z +%s)") \
		bash -c '"$1" export -f prometheus ext-b.txt | grep timestamp_seconds' _ "$TOOL"
	before=$(date +%s)
	"$TOOL" snapshot -o "$TMP/now.snap" kernel.txt
	after=$(date +%s)
	got=$("$TOOL" export -f prometheus "$TMP/now.snap" |
		sed -n 's/^allocinfo_ext_export_timestamp_seconds{source="allocinfo"} \([0-9]*\)$/\1/p')
	if [ -n "$got" ] && [ "$got" -ge "$before" ] && [ "$got" -le "$after" ]; then
		ok "prometheus: a snapshot taken now: its timestamp, $got, within [$before, $after]"
	else
		not_ok "prometheus: a snapshot taken now: its timestamp" "got '$got', want [$before, $after]"
	fi
	if "$TOOL" export -f prometheus ext-a.txt >"$TMP/out" 2>&1 &&
		! grep -q timestamp "$TMP/out" && grep -q '^allocinfo_ext_info{' "$TMP/out"; then
		ok "prometheus: no timestamp for a file without a head, its time unknown"
	else
		not_ok "prometheus: no timestamp for a file without a head" "$(grep timestamp "$TMP/out")"
	fi
}
