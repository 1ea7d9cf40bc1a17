#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench-scale.sh - `make bench-scale`: boot Debian's 6.12 (KERNEL=) under
# QEMU with -icount shift=0,sleep=off (a guest nanosecond is an
# instruction), one vCPU, once per configuration of guest memory,
# possible CPUs (possible_cpus=) and live objects; in each, load
# allocinfo_ext with its defaults (max_sites=65536 but for that), then
# have the selftests' helper module hold that many kmalloc(64) objects
# and pages, and measure what grows with them (tools/vm/guest/
# bench-scale.sh): tracked and untracked objects, the module's memory
# against issue 43's budget, what the module adds to aie_bench's
# kmalloc-64 and pages-0 pairs (the pairs without it measured in the same
# states) with none of the objects and with all of them live, the
# helper's mass allocation per object, a read of
# /proc/allocinfo_ext with 16,384 and with 65,536 sites, one OOM report
# and the insmod. Prints one table in reStructuredText, ready for
# Documentation/benchmarks.rst. A benchmark, not a test: it fails only
# when a boot does not complete. Raw figures and logs go to
# build/bench-scale/.
#
# AIE_SCALE_OLD: a git commit whose module each guest also loads at
# 65,536 sites, for one more OOM report: the cost before a change, beside
# the cost after, in the same boot (default: none).
#
# AIE_SCALE_CONFIGS: the configurations, one a line, "<memory> <possible
# CPUs> <objects> <pages>" (default: the four of issue 43 this 24 GiB,
# two-core host runs, and an idle 1 GiB guest of 255 possible CPUs; see
# Documentation/benchmarks.rst).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

AIE_SCALE_OUT=$AIE_BUILD/bench-scale
AIE_SCALE_CONFIGS=${AIE_SCALE_CONFIGS:-"1G 2 0 0
1G 255 0 0
1G 2 1000000 0
4G 64 4000000 500000
8G 255 10000000 1000000"}

# Build allocinfo_ext, aie_bench, benchload and the helper module for
# $AIE_KDIR, and pack them, stripped, with the guest scripts. aie_bench's
# copy loses the names of its 20,000 site functions too: the first read
# of the table names each new site from its module's symbols, one linear
# scan each, which with them took a million instructions a site.
aie_scale_build() {
	local st ko helper=selftests/allocinfo_ext/aie_helper
	AIE_OUT=$AIE_BUILD/$AIE_KREL-scale
	st=$AIE_OUT/stage
	rm -rf "$st" && mkdir -p "$st/aie"
	aie_log "building for $AIE_KREL"
	aie_make -s -C "$AIE_TOP" KDIR="$AIE_KDIR" >&2 || aie_die "module build failed"
	aie_make -s -C "$AIE_TOP/tools/bench" KDIR="$AIE_KDIR" modules >&2 &&
		aie_make -s -C "$AIE_TOP/tools/bench" benchload >&2 ||
		aie_die "tools/bench build failed"
	aie_make -s -C "$AIE_TOP/$helper" KDIR="$AIE_KDIR" >&2 ||
		aie_die "$helper build failed"
	for ko in module/allocinfo_ext.ko tools/bench/aie_bench/aie_bench.ko \
		"$helper/aie_helper.ko"; do
		strip --strip-debug --wildcard -N '*aie_bench_site_[0-9]*' \
			-N '*aie_bench_wide_[0-9]*' \
			-o "$st/aie/$(basename "$ko")" "$AIE_TOP/$ko" ||
			aie_die "cannot copy $ko"
	done
	cp "$AIE_TOP/tools/bench/benchload" "$AIE_TOP/tools/vm/guest/"* "$st/aie/"
	aie_scale_old "$st/aie"
	aie_initramfs
}

# aie_scale_old DIR: the module of commit $AIE_SCALE_OLD, built in
# $AIE_BUILD/scale-old, as DIR/allocinfo_ext_old.ko; nothing without it.
aie_scale_old() {
	local old=$AIE_BUILD/scale-old
	[ -n "${AIE_SCALE_OLD:-}" ] || return 0
	rm -rf "$old" && mkdir -p "$old"
	git -C "$AIE_TOP" archive "$AIE_SCALE_OLD" Kbuild Makefile include module |
		tar -x -C "$old" || aie_die "cannot export $AIE_SCALE_OLD"
	aie_make -s -C "$old" KDIR="$AIE_KDIR" >&2 ||
		aie_die "the module of $AIE_SCALE_OLD did not build"
	strip --strip-debug -o "$1/allocinfo_ext_old.ko" \
		"$old/module/allocinfo_ext.ko" || aie_die "cannot copy the old module"
}

# aie_scale_boot MEM CPUS OBJECTS PAGES: one boot, its figures appended
# to $raw after a line "B MEM CPUS OBJECTS PAGES". The guest's memory is
# all QEMU's to touch: a boot of 8 GiB wants 8 GiB of the host.
#
# One vCPU present, CPUS possible (-smp 1,maxcpus=CPUS): QEMU's MADT
# lists the others as disabled, hot-pluggable, and 6.12 counts those
# only on a hypervisor it knows (acpi_is_processor_usable()); TCG is
# none, and possible_cpus= only lowers the count. So the guest is told
# it runs on VMware: no hypervisor bit in CPUID, "VMware" in the DMI
# serial, and QEMU's vmport answers the backdoor's version query
# (vmware_platform()). QEMU gives no TSC frequency through it, so the
# kernel calibrates its TSC and runs no paravirt clock, as without.
# As many vCPUs present took minutes a tenth of a second of boot under
# icount (64 and 255 tried). QEMU 7.2's TCG has no x2APIC: 255 is the
# most it boots (APIC IDs up to 254).
aie_scale_boot() {
	local t0=$SECONDS name=$1-$2-$3-$4 limit
	limit=${AIE_TIMEOUT:-2400}
	AIE_VM_MEM=$1 AIE_VM_CPUS=1,maxcpus=$2 \
		AIE_APPEND="aie.objs=$3 aie.pages=$4" \
		AIE_QEMU_EXTRA="-icount shift=0,sleep=off -cpu max,hypervisor=off
			-smbios type=1,serial=VMware-aie" \
		aie_boot scale "$limit" || true
	tr -d '\r' <"$AIE_OUT/console.log" >"$AIE_SCALE_OUT/$name.console.log"
	tr -d '\r' <"$AIE_OUT/output.log" >"$AIE_SCALE_OUT/$name.log"
	grep -q '^AIE-END 0' "$AIE_SCALE_OUT/$name.log" ||
		aie_die "the $name boot did not complete: see $AIE_SCALE_OUT/$name.*"
	aie_bad_log "$AIE_SCALE_OUT/$name.console.log" | head -n 5 |
		sed 's/^/# kernel: /' >&2
	{ echo "B $*"; grep -E '^[SM] ' "$AIE_SCALE_OUT/$name.log"; } >>"$raw"
	aie_log "$name: $((SECONDS - t0)) s"
}

# The table from $raw: one row a boot.
aie_scale_report() {
	awk '
	# n with thousands separators
	function sep(n,   s) {
		s = sprintf("%d", n)
		while (s ~ /[0-9][0-9][0-9][0-9]/)
			sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
		return s
	}
	# n as a count of millions or thousands: 4M, 0.5M, 16k
	function count(n) {
		if (n == 0) return "0"
		if (n >= 100000) return (n / 1000000) "M"
		return (n / 1000) "k"
	}
	# guest ns (instructions) in millions, one decimal
	function mi(v) {
		return v == "-" || v == "" ? "-" : sprintf("%.1f", v / 1e6)
	}
	# the OOM report at 65,536 sites, and before the change with its ratio
	function oom64(a, b) {
		if (b == "-" || b == "")
			return mi(a)
		if (a == "-" || a == "")
			return "- / " mi(b)
		return sprintf("%s / %s (%.3f)", mi(a), mi(b), a / b)
	}
	# what the module adds to a pair, with none of the objects live and
	# with all of them (pair with the module less without), and the ratio
	function pair(i, op,   a, b, a0, b0) {
		a = s[i, "none_" op]; b = s[i, "live_" op]
		a0 = s[i, "base_none_" op]; b0 = s[i, "base_live_" op]
		if (a == "-" || b == "-" || a == "" || b == "" ||
		    a0 == "-" || b0 == "-" || a0 == "" || b0 == "")
			return "-"
		return sprintf("+%.1f / +%.1f (%.3f)", a - a0, b - b0,
			       (b - b0) / (a - a0))
	}
	# the mass allocation, instructions per object and page, with the
	# module and without
	function per_obj(i,   k, a, b) {
		k = objs[i] + pages[i]
		a = s[i, "mass_ns"]; b = s[i, "base_mass_ns"]
		if (k == 0 || a == "-" || a == "" || b == "-" || b == "")
			return "-"
		return sprintf("%.0f / %.0f", a / k, b / k)
	}
	$1 == "B" { n++; mem[n] = $2; cpus[n] = $3; objs[n] = $4; pages[n] = $5; next }
	$1 == "S" { s[n, $2] = $3 }
	END {
		fmt = "%-30s  %10s  %9s  %11s  %8s  %11s  %6s  %-24s  %-24s  %11s  %8s  %8s  %6s  %-24s  %6s\n"
		line = sprintf(fmt, "==============================", "==========",
			"=========", "===========", "========", "===========", "======",
			"========================", "========================",
			"===========", "========", "========", "======",
			"========================", "======")
		printf "%s", line
		printf fmt, "guest, live objects", "tracked", "untracked",
			"memory", "B/obj", "budget", "within",
			"kmalloc-64 none / live", "pages-0 none / live",
			"mass/obj", "read 16k", "read 64k", "OOM", "OOM 64k / old",
			"insmod"
		printf "%s", line
		for (i = 1; i <= n; i++) {
			m = s[i, "memtotal"]
			t = s[i, "tracked_objects"]
			b = s[i, "memory_bytes"]
			budget = 8 * t + 8 * int(m / 4096) + 8 * 1048576
			g = mem[i] " CPUs, " count(objs[i])
			sub(/G /, " GiB, " s[i, "possible"] " ", g)
			if (pages[i] > 0)
				g = g " + " count(pages[i]) " pg"
			printf fmt, g, sep(t), sep(s[i, "untracked"]), sep(b),
				(t > 0 ? sprintf("%.1f", b / t) : "-"), sep(budget),
				(b <= budget ? "yes" : "NO"),
				pair(i, "kmalloc-64"), pair(i, "pages-0"),
				per_obj(i),
				mi(s[i, "read16384_ns"]), mi(s[i, "read65536_ns"]),
				mi(s[i, "oom_ns"]),
				oom64(s[i, "oom64k_ns"], s[i, "oomold_ns"]),
				mi(s[i, "insmod_ns"])
		}
		printf "%s", line
	}' "$raw"
}

aie_deps
aie_kernel "${KERNEL:-6.12}"
aie_scale_build
mkdir -p "$AIE_SCALE_OUT"
raw=$AIE_SCALE_OUT/$AIE_KREL.raw
: >"$raw"
t0=$SECONDS
while read -r mem cpus objs pages; do
	[ -n "$mem" ] || continue
	aie_scale_boot "$mem" "$cpus" "$objs" "$pages" </dev/null
done <<<"$AIE_SCALE_CONFIGS"
echo "\`\`make bench-scale\`\`, $AIE_KREL, $(date -u +%F), $(((SECONDS - t0 + 30) / 60)) minutes:"
echo
aie_scale_report | tee "$AIE_SCALE_OUT/$AIE_KREL.rst"
