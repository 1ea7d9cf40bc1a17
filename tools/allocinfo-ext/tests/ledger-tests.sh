# SPDX-License-Identifier: GPL-2.0
# ledger-tests.sh - `ledger` on copies of /proc and /sys (fixtures/ledger):
# exact output, every category's parts adding up to its meminfo figure,
# and each bad input said on stderr with the part still explained.
# Sourced by run.sh, run in fixtures/.

# ledger_sums NAME JSON [PYTHON]: each category's sites, before_load and
# unexplained add up to its meminfo figure; used is meminfo's used less
# the stacks counted twice; explained is used less the unexplained; and
# PYTHON's asserts on d (the JSON) and c (its categories by name).
ledger_sums() {
	local name=$1 json=$2 extra=${3:-}

	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
c = {k["name"]: k for k in d["categories"]}
for k in d["categories"]:
    parts = k["sites_bytes"] + sum(b["bytes"] for b in k["before_load"]) + k["unexplained_bytes"]
    assert parts == k["meminfo_bytes"], (k["name"], parts, k["meminfo_bytes"])
    assert min([k["sites_bytes"], k["unexplained_bytes"]] + [b["bytes"] for b in k["before_load"]]) >= 0, k
twice = c["kernel_stacks"]["meminfo_bytes"] if any(b["source"] == "vmalloc" for b in c.get("kernel_stacks", {"before_load": []})["before_load"]) else 0
assert d["used_bytes"] == sum(k["meminfo_bytes"] for k in d["categories"]) - twice
assert d["explained_bytes"] == d["used_bytes"] - sum(k["unexplained_bytes"] for k in d["categories"])
exec(sys.argv[2])' "$json" "$extra" 2>"$TMP/py"; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$TMP/py")" "$(head -c 2000 "$json")"
	fi
}

# ledger_case NAME DIR WANT_ERR [PYTHON]: exit 0, stderr exactly WANT_ERR,
# the sums right.
ledger_case() {
	local name=$1 dir=$2 want=$3 extra=${4:-}

	if "$TOOL" ledger -j -l 0 --root "$dir" >"$TMP/l.json" 2>"$TMP/l.err" &&
		[ "$(cat "$TMP/l.err")" = "$want" ]; then
		ledger_sums "ledger: $name" "$TMP/l.json" "$extra"
	else
		not_ok "ledger: $name" "stderr: $(cat "$TMP/l.err")" "want:   $want"
	fi
}

NOEXPORT="allocinfo-ext: ledger: the module exports no per-cache figures (/proc/allocinfo_ext_caches): slab memory is named by cache, its call sites' part not told apart"

ledger_tests() {
	local r=$TMP/ledger

	if [ "$(getconf PAGESIZE)" != 4096 ]; then
		not_ok "ledger: fixtures need 4 KiB pages, not $(getconf PAGESIZE)"
		return
	fi
	expect_err "ledger: takes no arguments" 2 \
		"allocinfo-ext: ledger takes no arguments
Try 'allocinfo-ext ledger --help'." "$TOOL" ledger x
	expect_err "ledger: --root that does not exist said so, exit 1" 1 \
		"allocinfo-ext: ledger: --root /nonexistent-aie: No such file or directory" \
		"$TOOL" ledger --root /nonexistent-aie
	expect_err "ledger: --root that is a file said so, exit 1" 1 \
		"allocinfo-ext: ledger: --root ledger/proc/meminfo: Not a directory" \
		"$TOOL" ledger --root ledger/proc/meminfo
	expect_err "ledger: --log that cannot be read said so, exit 1, no ledger" 1 \
		"$NOEXPORT
allocinfo-ext: ledger: cannot read /nonexistent-aie: No such file or directory" \
		"$TOOL" ledger --root ledger --log /nonexistent-aie
	"$TOOL" ledger --root ledger >"$TMP/l.out" 2>"$TMP/l.err"
	if cmp -s "$EXP/ledger.out" "$TMP/l.out" && [ "$(cat "$TMP/l.err")" = "$NOEXPORT" ]; then
		ok "ledger: text, top 5 per category"
	else
		not_ok "ledger: text, top 5 per category" "$(cat "$TMP/l.err")" \
			"$(diff -u "$EXP/ledger.out" "$TMP/l.out")"
	fi
	"$TOOL" ledger -j -l 0 --root ledger >"$TMP/l.json" 2>/dev/null
	if cmp -s "$EXP/ledger.json" "$TMP/l.json"; then
		ok "ledger: json, every part"
	else
		not_ok "ledger: json, every part" "$(diff -u "$EXP/ledger.json" "$TMP/l.json")"
	fi
	ledger_sums "ledger: parts add up; sites subtracted from their vmalloc caller" \
		"$TMP/l.json" 'v = {b["name"]: b["bytes"] for b in c["vmalloc"]["before_load"]}
assert v["bpf_prog_alloc_no_stats"] == 4096 and c["vmalloc"]["sites_bytes"] == 12288
assert v["alloc_large_system_hash"] == 3145728 and v["TCP bind hash table"] == 1048576
assert c["page_tables"]["sites_bytes"] == 40960 and c["other"]["sites_bytes"] == 8192
assert "Dentry cache hash table" not in str(d)'

	# the module's per-cache figures subtracted from their caches
	rm -rf "$r" && cp -r ledger "$r"
	printf 'allocinfo_ext_caches - version: 1.0\n# <cache> <objects> <bytes>\ndentry 1000 192000\nkmalloc-64 10 640\nkmalloc-8k 2 16384\n' \
		>"$r/proc/allocinfo_ext_caches"
	ledger_case "the module's per-cache figures: slab call sites" "$r" "" \
		'b = {x["name"]: x["bytes"] for k in d["categories"] for x in k["before_load"]}
assert c["slab_reclaimable"]["sites_bytes"] == 192000 and b["dentry"] == 40960000 - 192000
assert c["slab_unreclaimable"]["sites_bytes"] == 640 + 16384 and b["kmalloc-64"] == 8192000 - 640'

	# not root: slabinfo unreadable (a copy without it)
	rm -rf "$r" && cp -r ledger "$r" && rm "$r/proc/slabinfo"
	ledger_case "no slabinfo: said, the rest explained" "$r" \
		"allocinfo-ext: ledger: cannot read /proc/slabinfo: No such file or directory: slab memory is not named by cache
$NOEXPORT" 'assert c["slab_reclaimable"]["unexplained_bytes"] == 61440000 and c["vmalloc"]["before_load"]'

	# a root without sys/: refused, not every cache misfiled
	rm -rf "$r" && cp -r ledger "$r" && rm -r "$r/sys"
	expect_err "ledger: a root without sys/kernel/slab: refused, exit 1" 1 \
		"allocinfo-ext: ledger: no $r/sys/kernel/slab: which slab caches are reclaimable is unknown (copy /sys/kernel/slab into the root too)" \
		"$TOOL" ledger --root "$r"
	# without slabinfo too, sys/ is not needed: the rest explained
	rm "$r/proc/slabinfo"
	ledger_case "no sys/ and no slabinfo: said, the rest explained" "$r" \
		"allocinfo-ext: ledger: cannot read /proc/slabinfo: No such file or directory: slab memory is not named by cache
$NOEXPORT" 'assert c["slab_reclaimable"]["unexplained_bytes"] == 61440000 and c["vmalloc"]["before_load"]'

	# vmallocinfo without callers
	rm -rf "$r" && cp -r ledger "$r"
	sed -i 's/ [a-z_]*+0x[0-9a-f]*\/0x[0-9a-f]*\( \[[a-z_]*\]\)\? / 0xffffffff81234567 /' "$r/proc/vmallocinfo"
	ledger_case "vmallocinfo without callers: said, left unexplained" "$r" \
		"allocinfo-ext: ledger: /proc/vmallocinfo names no caller for 5287936 bytes (a kernel without kallsyms?): left unexplained
$NOEXPORT" 'assert [b["name"] for b in c["vmalloc"]["before_load"]] == ["TCP bind hash table"]
assert "kernel_stacks" in c and not c["kernel_stacks"]["before_load"]'

	# the module not loaded
	rm -rf "$r" && cp -r ledger "$r" && rm "$r/proc/allocinfo_ext"
	ledger_case "module not loaded: said, no sites" "$r" \
		"allocinfo-ext: ledger: allocinfo_ext is not loaded (no /proc/allocinfo_ext): no memory attributed to call sites" \
		'assert all(k["sites_bytes"] == 0 for k in d["categories"])
assert {"source": "vmallocinfo", "name": "bpf_prog_alloc_no_stats", "bytes": 8192} in c["vmalloc"]["before_load"]'

	# the kernel's /proc/allocinfo, no module
	rm -rf "$r" && cp -r ledger "$r" && mv "$r/proc/allocinfo_ext" "$TMP/ext" &&
		cp kernel.txt "$r/proc/allocinfo"
	ledger_case "/proc/allocinfo without the module: said, not split" "$r" \
		"allocinfo-ext: ledger: /proc/allocinfo gives no allocator per call site: its $(awk 'NR > 2 { s += $1 } END { print s }' kernel.txt) bytes are not split into categories (load allocinfo_ext for that)" \
		'assert all(k["sites_bytes"] == 0 for k in d["categories"])
assert d["unsplit_sites_bytes"] == 2260992, d["unsplit_sites_bytes"]'
	if "$TOOL" ledger --root "$r" 2>/dev/null | sed -n 2p | grep -qxF \
		"call sites: 2.2M in /proc/allocinfo, not split into categories"; then
		ok "ledger: /proc/allocinfo without the module: its total on stdout too"
	else
		not_ok "ledger: /proc/allocinfo without the module: its total on stdout too" \
			"$("$TOOL" ledger --root "$r" 2>&1 | head -n 3)"
	fi

	# truncated files: meminfo before Percpu, a slabinfo and a vmallocinfo line cut
	rm -rf "$r" && cp -r ledger "$r"
	sed -i '/^Percpu/,$d' "$r/proc/meminfo"
	sed -i '$s/ : slabdata.*//' "$r/proc/slabinfo"
	printf '0xffffc90000b00000-0xffffc90000b0' >>"$r/proc/vmallocinfo"
	ledger_case "truncated files: said, the rest explained" "$r" \
		"allocinfo-ext: ledger: /proc/slabinfo: 1 line cut short or malformed, left out
allocinfo-ext: ledger: /proc/vmallocinfo: 1 line cut short, left out
$NOEXPORT
allocinfo-ext: ledger: /proc/meminfo gives no percpu (cut short?): percpu counted in other" \
		'assert "percpu" not in c and "kmalloc-64" not in str(d) and c["other"]["meminfo_bytes"] == 114688000 + 3072000'
	# a module table cut short: the tool's parser says where
	rm -rf "$r" && cp -r ledger "$r" && head -c 300 ledger/proc/allocinfo_ext >"$r/proc/allocinfo_ext"
	"$TOOL" ledger -j --root "$r" >"$TMP/l.json" 2>"$TMP/l.err"
	if grep -q "no memory attributed to call sites" "$TMP/l.err"; then
		ledger_sums "ledger: module table cut short: said, the rest explained" "$TMP/l.json" \
			'assert all(k["sites_bytes"] == 0 for k in d["categories"])'
	else
		not_ok "ledger: module table cut short: said, the rest explained" "$(cat "$TMP/l.err")"
	fi

	# meminfo without used memory: nothing to explain
	rm -rf "$r" && cp -r ledger "$r" && sed -i '/^MemFree/d' "$r/proc/meminfo"
	expect_err "ledger: meminfo without MemFree: refused" 1 \
		"allocinfo-ext: ledger: /proc/meminfo gives no MemFree: used memory unknown" \
		"$TOOL" ledger --root "$r"
	# parts that pass the figure are cut, and say so
	rm -rf "$r" && cp -r ledger "$r" && sed -i 's/^SUnreclaim: .*/SUnreclaim: 20000 kB/' "$r/proc/meminfo"
	ledger_case "parts past the figure: cut, over_bytes" "$r" "$NOEXPORT" \
		'u = c["slab_unreclaimable"]
assert u["unexplained_bytes"] == 0 and u["over_bytes"] == 19660800 + 8192000 - 20480000'
}
