#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench-latency.sh - `make bench-latency`: the longest section with
# interrupts off that each of allocinfo_ext's read paths makes, on
# Debian's 6.12-rt (KERNEL=) under QEMU with -icount shift=0,sleep=off (a
# guest nanosecond is an instruction), one vCPU. Debian builds its kernels
# without the irqsoff tracer; the timerlat tracer (tools/vm/guest/
# bench-latency.sh) takes its place: a hard timer every 100 us of guest
# time, and the delay from its expiry to its handler, which is how much
# of a section with interrupts off was left when it expired. The longest
# delay over thousands of timers while a path is read again and again is
# its longest such section, within the timer's own entry cost.
#
# One boot measures three sets: the kernel alone (the helper module's
# objects held, /proc/slabinfo read in the same loop), then
# allocinfo_ext built from AIE_LATENCY_BASE (the tree before the read
# paths were bounded, default 025f353) and from the working tree, each
# with the same parameters and the same objects. Prints one table in
# reStructuredText, ready for Documentation/benchmarks.rst. A benchmark,
# not a test: it fails only when the boot does not complete. Raw figures
# and logs go to build/bench-latency/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

AIE_LAT_OUT=$AIE_BUILD/bench-latency
AIE_LATENCY_BASE=${AIE_LATENCY_BASE:-025f353}

# Build allocinfo_ext twice (the base in a copy of its tree under
# $AIE_OUT/base), the helper module and the static allocinfo-ext for
# $AIE_KDIR, and pack them with the guest scripts.
aie_lat_build() {
	local st base helper=selftests/allocinfo_ext/aie_helper
	AIE_OUT=$AIE_BUILD/$AIE_KREL-latency
	st=$AIE_OUT/stage
	base=$AIE_OUT/base
	rm -rf "$st" "$base" && mkdir -p "$st/aie/before" "$base"
	git -C "$AIE_TOP" archive "$AIE_LATENCY_BASE" Makefile Kbuild module include |
		tar -x -C "$base" || aie_die "cannot unpack $AIE_LATENCY_BASE"
	aie_log "building for $AIE_KREL: the tree and $AIE_LATENCY_BASE"
	aie_make -s -C "$AIE_TOP" KDIR="$AIE_KDIR" >&2 || aie_die "module build failed"
	aie_make -s -C "$base" KDIR="$AIE_KDIR" >&2 ||
		aie_die "module build of $AIE_LATENCY_BASE failed"
	aie_make -s -C "$AIE_TOP/$helper" KDIR="$AIE_KDIR" >&2 ||
		aie_die "$helper build failed"
	make -s -C "$AIE_TOP" tools >&2 &&
		make -s -C "$AIE_TOP/tools/allocinfo-ext" allocinfo-ext.static >&2 ||
		aie_die "tools/allocinfo-ext build failed"
	strip --strip-debug -o "$st/aie/allocinfo_ext.ko" "$AIE_TOP/module/allocinfo_ext.ko" &&
		strip --strip-debug -o "$st/aie/before/allocinfo_ext.ko" \
			"$base/module/allocinfo_ext.ko" &&
		strip --strip-debug -o "$st/aie/aie_helper.ko" "$AIE_TOP/$helper/aie_helper.ko" &&
		cp "$AIE_TOP/tools/allocinfo-ext/allocinfo-ext.static" "$st/aie/allocinfo-ext" ||
		aie_die "cannot copy the modules"
	cp "$AIE_TOP/tools/vm/guest/"* "$st/aie/"
	aie_initramfs
}

# The table from $raw's lines "L <set> <path> <irq ns> <thread ns> <timers>".
aie_lat_report() {
	awk '
	function us(v) { return v == "" ? "-" : sprintf("%.1f", v / 1000) }
	$1 == "L" && $2 == "none" { none_irq = $4; none_thr = $5; next }
	$1 == "L" {
		if (!(($3) in seen)) { seen[$3] = 1; order[++n] = $3 }
		irq[$2, $3] = $4; thr[$2, $3] = $5
	}
	END {
		fmt = "%-24s  %10s  %10s  %10s  %13s  %13s  %13s\n"
		line = sprintf(fmt, "========================", "==========",
			"==========", "==========", "=============",
			"=============", "=============")
		printf "%s", line
		printf fmt, "read path", "irq before", "irq after", "irq none",
			"thread before", "thread after", "thread none"
		printf "%s", line
		for (i = 1; i <= n; i++) {
			p = order[i]
			printf fmt, p, us(irq["before", p]), us(irq["after", p]),
				us(none_irq), us(thr["before", p]),
				us(thr["after", p]), us(none_thr)
		}
		printf "%s", line
	}' "$raw"
}

aie_deps
aie_kernel "${KERNEL:-6.12-rt}"
aie_lat_build
mkdir -p "$AIE_LAT_OUT"
raw=$AIE_LAT_OUT/$AIE_KREL.raw
t0=$SECONDS
AIE_VM_CPUS=1 AIE_QEMU_EXTRA="-icount shift=0,sleep=off" \
	aie_boot latency "${AIE_TIMEOUT:-2400}" || true
tr -d '\r' <"$AIE_OUT/console.log" >"$AIE_LAT_OUT/$AIE_KREL.console.log"
tr -d '\r' <"$AIE_OUT/output.log" >"$AIE_LAT_OUT/$AIE_KREL.log"
grep -q '^AIE-END 0' "$AIE_LAT_OUT/$AIE_KREL.log" ||
	aie_die "the boot did not complete: see $AIE_LAT_OUT/$AIE_KREL.*"
aie_bad_log "$AIE_LAT_OUT/$AIE_KREL.console.log" | head -n 5 | sed 's/^/# kernel: /' >&2
grep -E '^L ' "$AIE_LAT_OUT/$AIE_KREL.log" >"$raw"
echo "\`\`make bench-latency\`\`, $AIE_KREL, before: $AIE_LATENCY_BASE, $(date -u +%F), $(((SECONDS - t0 + 30) / 60)) minutes;"
echo "the longest delays, in microseconds of guest time:"
echo
aie_lat_report | tee "$AIE_LAT_OUT/$AIE_KREL.rst"
