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
	"$TOOL" export -f prometheus -o "$dir/textfile/allocinfo.prom" ext-a.txt
	# Names that are not UTF-8: one bad file would drop them all
	"$TOOL" export -f prometheus -o "$dir/textfile/hostile.prom" hostile-utf8.txt
	read -r PROM_NE_PORT PROM_PORT < <(prom_ports)
	prometheus-node-exporter --web.listen-address="127.0.0.1:$PROM_NE_PORT" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$dir/textfile" >"$dir/ne.log" 2>&1 &
	ne_pid=$!
	cat >"$dir/prometheus.yml" <<-EOT
	global:
	  scrape_interval: 1s
	  evaluation_interval: 1s
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
	prom_stop "$ne_pid" "$pr_pid"
}
