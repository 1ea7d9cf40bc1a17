# SPDX-License-Identifier: GPL-2.0
# cgroup-tests.sh - the commands reading /proc/allocinfo_ext_cgroups, on a
# copy of /proc and /sys/fs/cgroup (fixtures/cgroup): `cgroup PATH`'s
# exact text and JSON (descendants summed, removed ones in, an earlier
# cgroup of PATH's name out, a prefix that is no parent out, escaped
# paths, sums of the sites passing memory.stat shown, a key memory.stat
# lacks null), bad PATHs refused; group --by cgroup; top --cgroup;
# export --cgroups's bound. Sourced by run.sh, run in fixtures/.

# cgroup_sums NAME JSON: in each category memory.stat gives, the sites'
# bytes are sites_bytes, and sites_bytes + unexplained - over is
# memory.stat's figure, unexplained and over never both above 0 nor
# below 0; a category it does not give has null for all three.
cgroup_sums() {
	local name=$1 json=$2

	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert [c["name"] for c in d["categories"]] == ["slab", "kernel_stack",
    "pagetables", "percpu", "sock", "vmalloc", "other"]
for c in d["categories"]:
    assert c["sites_bytes"] == sum(s["bytes"] for s in c["sites"]), c
    if c["memory_stat_bytes"] is None:
        assert c["unexplained_bytes"] is None and c["over_bytes"] is None, c
        continue
    assert c["sites_bytes"] + c["unexplained_bytes"] - c["over_bytes"] == \
        c["memory_stat_bytes"], c
    assert min(c["unexplained_bytes"], c["over_bytes"]) == 0, c' "$json" 2>"$TMP/py"; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/py")" "$(head -c 2000 "$json")"
	fi
}

cgroup_cmd_tests() {
	local r=$TMP/cgroot

	expect_out "cgroup: /app, its descendants and a removed child summed, an earlier /app and /application left out" \
		"$EXP/cgroup-app.out" "$TOOL" cgroup --root cgroup /app
	expect_out "cgroup: -j /app, every site, null where memory.stat has no key" \
		"$EXP/cgroup-app.json" "$TOOL" cgroup -j --root cgroup /app
	cgroup_sums "cgroup: -j /app: sites, unexplained and over add up to memory.stat" \
		"$EXP/cgroup-app.json"
	"$TOOL" cgroup -j --root cgroup /app/web >"$TMP/cg.json" 2>"$TMP/err"
	cgroup_sums "cgroup: -j /app/web: slab from slab_reclaimable + slab_unreclaimable, sums" \
		"$TMP/cg.json"
	expect_out "cgroup: -l 1 /app/web, a leaf, one site a category" \
		"$EXP/cgroup-web.out" "$TOOL" cgroup -l 1 --root cgroup /app/web
	expect_err "cgroup: a PATH not starting with / refused, exit 2" 2 \
		"allocinfo-ext: bad cgroup \"app\": a path in the cgroup hierarchy, as /proc/allocinfo_ext_cgroups names it (/ or /a/b; no ., .., // or trailing /)
Try 'allocinfo-ext cgroup --help'." "$TOOL" cgroup --root cgroup app
	expect_err "cgroup: a PATH with .. refused, exit 2" 2 \
		"allocinfo-ext: bad cgroup \"/app/../idle\": a path in the cgroup hierarchy, as /proc/allocinfo_ext_cgroups names it (/ or /a/b; no ., .., // or trailing /)
Try 'allocinfo-ext cgroup --help'." "$TOOL" cgroup --root cgroup /app/../idle
	expect_err "cgroup: a PATH with a trailing / refused, exit 2" 2 \
		"allocinfo-ext: bad cgroup \"/app/\": a path in the cgroup hierarchy, as /proc/allocinfo_ext_cgroups names it (/ or /a/b; no ., .., // or trailing /)
Try 'allocinfo-ext cgroup --help'." "$TOOL" cgroup --root cgroup /app/
	expect_err "cgroup: no PATH, exit 2" 2 \
		"allocinfo-ext: cgroup needs a PATH
Try 'allocinfo-ext cgroup --help'." "$TOOL" cgroup --root cgroup
	expect_err "cgroup: a cgroup without memory.stat said so, exit 1" 1 \
		"allocinfo-ext: cgroup /app/db: no such memory cgroup: cannot read cgroup/sys/fs/cgroup/app/db/memory.stat: No such file or directory" \
		"$TOOL" cgroup --root cgroup /app/db
	mkdir -p "$r"
	cp -r cgroup/sys "$r/"
	expect_err "cgroup: no cgroups file said so, exit 1" 1 \
		"allocinfo-ext: cannot read $r/proc/allocinfo_ext_cgroups: No such file or directory" \
		"$TOOL" cgroup --root "$r" /app
	mkdir -p "$r/proc"
	cp cgroup/proc/allocinfo_ext_cgroups "$r/proc/"
	printf 'cgroups off\ncgroup_sites_full 7\n' >"$r/proc/allocinfo_ext_stats"
	if "$TOOL" cgroup --root "$r" /app >"$TMP/out" 2>"$TMP/err" &&
		cmp -s "$TMP/out" "$EXP/cgroup-app.out" &&
		[ "$(cat "$TMP/err")" = "allocinfo-ext: cgroup: cgroups is off: allocations since are unexplained (allocinfo-ext ctl cgroups on)
allocinfo-ext: cgroup: 7 allocations found no pair (cgroup_sites_full): unexplained (raise cgroup_sites)" ]; then
		ok "cgroup: cgroups off and pairs full said on stderr, the figures the same"
	else
		not_ok "cgroup: cgroups off and pairs full said on stderr" "$(cat "$TMP/err")"
	fi
	cp ext-a.txt "$r/proc/allocinfo_ext_cgroups"
	expect_err "cgroup: a table for the cgroups file refused, naming it" 1 \
		"allocinfo-ext: $r/proc/allocinfo_ext_cgroups:1: expected \"allocinfo_ext_cgroups - version: 1.0\": not the cgroups file" \
		"$TOOL" cgroup --root "$r" /app
	printf 'allocinfo_ext_cgroups - version: 1.0\n 1 1 f+0x1/0x2 func:f type:slab slack:0 total_calls:1 total_bytes:1 cgroup:/a\\09\n' \
		>"$r/proc/allocinfo_ext_cgroups"
	expect_err "cgroup: a bad escape in a cgroup path refused, naming the line" 1 \
		"allocinfo-ext: $r/proc/allocinfo_ext_cgroups:2: bad escape in cgroup path \"/a\\09\"" \
		"$TOOL" cgroup --root "$r" /app
	printf 'allocinfo_ext_cgroups - version: 1.0\n 1 1 f+0x1/0x2 func:f type:slab slack:0 total_calls:1 total_bytes:1\n' \
		>"$r/proc/allocinfo_ext_cgroups"
	expect_err "cgroup: a row without cgroup: refused" 1 \
		"allocinfo-ext: $r/proc/allocinfo_ext_cgroups:2: missing fields: a row of the cgroups file has type, slack, total_calls, total_bytes and cgroup" \
		"$TOOL" cgroup --root "$r" /app
	expect_err "cgroup: the cgroups file given to group --by module refused, naming the readers" 1 \
		"allocinfo-ext: cgroup/proc/allocinfo_ext_cgroups:1: the table per call site and cgroup (/proc/allocinfo_ext_cgroups): cgroup, group --by cgroup, top --cgroup and export --cgroups read it" \
		"$TOOL" group --by module cgroup/proc/allocinfo_ext_cgroups
}

cgroup_view_tests() {
	local f=cgroup/proc/allocinfo_ext_cgroups

	expect_out "group: --by cgroup, each cgroup's own rows, removed ones marked, paths unescaped" \
		"$EXP/group-cgroup.out" "$TOOL" group --by cgroup "$f"
	"$TOOL" top -b -n 1 -l 0 --cgroup /app "$f" >"$TMP/top" 2>&1
	if [[ "$(head -n 1 "$TMP/top")" =~ ^"allocinfo-ext top - "[0-9]{2}:[0-9]{2}:[0-9]{2}" - $f, cgroup /app - sorted by bytes - every 3.0s"$ ]] &&
		cmp -s <(tail -n +2 "$TMP/top") "$EXP/top-cgroup.out"; then
		ok "top: --cgroup /app, the subtree's rows summed per site"
	else
		not_ok "top: --cgroup /app" "$(cat "$TMP/top")"
	fi
	expect_err "top: --cgroup with a bad PATH refused" 2 \
		"allocinfo-ext: bad cgroup \"//\": a path in the cgroup hierarchy, as /proc/allocinfo_ext_cgroups names it (/ or /a/b; no ., .., // or trailing /)
Try 'allocinfo-ext top --help'." "$TOOL" top -b --cgroup // "$f"
	expect_out "export: prometheus --cgroups 2, the two largest cgroups, the rest as (other)" \
		"$EXP/ext-a-cgroups.prom" "$TOOL" export -f prometheus --cgroups 2 \
		--cgroups-file "$f" ext-a.txt
	if "$TOOL" export -f prometheus --cgroups 0 --cgroups-file "$f" ext-a.txt \
		>"$TMP/all.prom" 2>"$TMP/err" &&
		[ "$(grep -c '^allocinfo_ext_cgroup_bytes{' "$TMP/all.prom")" = 11 ] &&
		! grep -q 'cgroup="(other)"' "$TMP/all.prom" &&
		[ "$(awk '/^allocinfo_ext_cgroup_bytes\{/ { s += $NF } END { print s }' "$TMP/all.prom")" = \
		  "$(awk '/^allocinfo_ext_cgroup_bytes\{/ { s += $NF } END { print s }' "$EXP/ext-a-cgroups.prom")" ]; then
		ok "export: prometheus --cgroups 0, every cgroup, the same bytes in all as with the bound"
	else
		not_ok "export: prometheus --cgroups 0" "$(cat "$TMP/err" "$TMP/all.prom")"
	fi
	if ! command -v promtool >/dev/null; then
		ok "export: --cgroups passes promtool check metrics # SKIP no promtool"
	elif promtool check metrics <"$EXP/ext-a-cgroups.prom" >"$TMP/out" 2>&1; then
		ok "export: --cgroups passes promtool check metrics"
	else
		not_ok "export: --cgroups passes promtool check metrics" "$(cat "$TMP/out")"
	fi
	expect_err "export: --cgroups-file without --cgroups refused" 2 \
		"allocinfo-ext: --cgroups-file needs --cgroups
Try 'allocinfo-ext export --help'." "$TOOL" export -f prometheus --cgroups-file "$f" ext-a.txt
}

cgroup_tests() {
	cgroup_cmd_tests
	cgroup_view_tests
}
