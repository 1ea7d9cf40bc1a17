#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh - `make bench`: boot each kernel under QEMU with -icount
# shift=0,sleep=off (one guest nanosecond is one instruction) on one vCPU,
# time the allocator operations of tools/bench/aie_bench and the userspace
# workloads of tools/bench/benchload under each configuration (nothing
# loaded, the floor of two empty tracepoint probes, allocinfo_ext with
# "disable all", full tracking with and without the slab map, sampling),
# and print one table per kernel
# in reStructuredText, ready for Documentation/benchmarks.rst. A benchmark,
# not a test: it fails only when a boot does not complete.
#
# AIE_BENCH_KERNELS: the kernels, as KERNEL= takes them (default: 6.12,
# then ../shared/kernels/linux-image-6.12.117-allocprof_1_amd64.deb when it
# exists). Beside the main boot, Debian's 6.12 boots again with
# slab_debug=U, and a kernel with CONFIG_MEM_ALLOC_PROFILING boots with
# sysctl.vm.mem_profiling=1 and with page_owner=on (the main boot has
# sysctl.vm.mem_profiling=0). Raw figures and logs go to build/bench/.
# AIE_BENCH_QUICK=1: the main boot only, five operations (see guest/bench.sh).
# AIE_BENCH_QUICK=read: the main boot only, the reads of 10,000 sites.
# AIE_BENCH_PROFILE=<op>[:<n>] (make bench-profile OP=...): instead of the
# tables, where one operation's instructions go, function by function (an
# operation of aie_bench, or a message or file of a userspace workload,
# msg-pipe, msg-socket or files, whose n is its rounds):
# four boots of the first kernel under the tbprof QEMU plugin
# (tools/bench/tbprof.c), n and 2n operations with nothing loaded and
# with full tracking; profile-report.py prints the second less the first,
# per operation, so that boot and module load cancel out (both boots with
# nothing loaded list the kernel's functions, for the same reason).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

AIE_ALLOCPROF=$AIE_TOP/../shared/kernels/linux-image-6.12.117-allocprof_1_amd64.deb
AIE_BENCH_OUT=$AIE_BUILD/bench

# Build allocinfo_ext, the bench modules and benchload for $AIE_KDIR, and
# pack them with the guest scripts. For arm64 benchload is cross-built
# and the modules stripped by the root's cross binutils.
aie_bench_build() {
	local st ko strip=(strip)
	[ -z "$AIE_CROSS" ] || strip=(aie_root_run "$AIE_ROOT_REL" "${AIE_CROSS}strip")
	AIE_OUT=$AIE_BUILD/$AIE_KREL-bench
	st=$AIE_OUT/stage
	rm -rf "$st" && mkdir -p "$st/aie"
	aie_log "building for $AIE_KREL"
	aie_make -s -C "$AIE_TOP" clean KDIR="$AIE_KDIR" >/dev/null 2>&1 || true
	aie_make -s -C "$AIE_TOP/tools/bench" clean KDIR="$AIE_KDIR" >/dev/null 2>&1 || true
	aie_make -s -C "$AIE_TOP" KDIR="$AIE_KDIR" >&2 || aie_die "module build failed"
	aie_make -s -C "$AIE_TOP/tools/bench" KDIR="$AIE_KDIR" modules >&2 &&
		aie_make -s -C "$AIE_TOP/tools/bench" CC="${AIE_CROSS}gcc" benchload >&2 ||
		aie_die "tools/bench build failed"
	for ko in module/allocinfo_ext.ko tools/bench/aie_bench/aie_bench.ko \
		tools/bench/aie_floor/aie_floor.ko; do
		"${strip[@]}" --strip-debug -o "$st/aie/$(basename "$ko")" "$AIE_TOP/$ko" ||
			aie_die "cannot copy $ko"
	done
	cp "$AIE_TOP/tools/bench/benchload" "$AIE_TOP/tools/vm/guest/"* "$st/aie/"
	aie_initramfs
}

# aie_bench_boot SET APPEND: one boot, its figures appended to $raw.
aie_bench_boot() {
	local set=$1 t0=$SECONDS
	AIE_APPEND="aie.bench=$set $2" AIE_VM_CPUS=1 \
		AIE_QEMU_EXTRA="-icount shift=0,sleep=off" \
		aie_boot bench "${AIE_TIMEOUT:-900}" || true
	cp "$AIE_OUT/console.log" "$AIE_BENCH_OUT/$AIE_KREL.$set.console.log"
	sed -n '/^AIE-BEGIN/,/^AIE-END/p' "$AIE_OUT/output.log" \
		>"$AIE_BENCH_OUT/$AIE_KREL.$set.log"
	grep -q '^AIE-END 0' "$AIE_OUT/output.log" ||
		aie_die "the $set boot of $AIE_KREL did not complete: see $AIE_BENCH_OUT/$AIE_KREL.$set.*"
	grep -aE "$AIE_BAD_LOG" "$AIE_OUT/console.log" | head -n 5 | sed 's/^/# kernel: /' >&2 || true
	{ echo "B $set $2"; tr -d '\r' <"$AIE_OUT/output.log" | grep -E '^[RNMTAE] '; } >>"$raw"
	aie_log "$set boot of $AIE_KREL: $((SECONDS - t0)) s"
}

# aie_bench_profile SPEC: make bench-profile on one kernel.
aie_bench_profile() {
	local op=${AIE_BENCH_PROFILE%%:*} n cfg k extra= prof=$AIE_BENCH_OUT/profile
	local passes rounds=
	n=${AIE_BENCH_PROFILE#"$op"}
	n=${n#:}
	# a userspace workload's n counts its rounds
	case "$op" in
	msg-pipe | msg-socket | files) rounds=--rounds; n=${n:-3} ;;
	*) n=${n:-20000} ;;
	esac
	case "$n" in
	*[!0-9]* | 0) aie_die "AIE_BENCH_PROFILE=$AIE_BENCH_PROFILE: <op>[:<n>], n a count" ;;
	esac
	aie_kernel "$1"
	aie_bench_build
	make -s -C "$AIE_TOP/tools/bench" tbprof.so >&2 ||
		aie_die "tools/bench/tbprof.so build failed"
	# as in the main boot of make bench: the in-kernel profiler off
	grep -qx 'CONFIG_MEM_ALLOC_PROFILING=y' "$AIE_KDIR_HOST/include/config/auto.conf" 2>/dev/null &&
		extra=sysctl.vm.mem_profiling=0
	rm -rf "$prof" && mkdir -p "$prof"
	for cfg in none full; do
		for k in 1 2; do
			AIE_APPEND="aie.bench=profile aie.profile=$op:$((k * n)) aie.config=$cfg nokaslr $extra $([ $cfg = none ] && echo aie.syms)" \
			AIE_VM_CPUS=1 AIE_QEMU_EXTRA="-icount shift=0,sleep=off -plugin $AIE_TOP/tools/bench/tbprof.so,out=$prof/$cfg$k.tb" \
				aie_boot bench "${AIE_TIMEOUT:-900}" || true
			tr -d '\r' <"$AIE_OUT/output.log" >"$prof/$cfg$k.log"
			grep -q '^AIE-END 0' "$prof/$cfg$k.log" && [ -s "$prof/$cfg$k.tb" ] ||
				aie_die "the profile boot $cfg$k of $AIE_KREL did not complete: see $prof"
			grep -q "^R $cfg $op " "$prof/$cfg$k.log" ||
				aie_die "$op: no such operation, or it failed (see $prof/$cfg$k.log)"
		done
	done
	if [ -n "$rounds" ]; then
		# the operations of a round, as benchload reports them
		passes=$(awk -v op="$op" '$1 == "R" && $3 == op { print $4; exit }' "$prof/none1.log")
	else
		# aie_bench's warm-up and its rounds
		passes=$(($(sed -n 's/^#define AIE_BENCH_ROUNDS[[:space:]]*\([0-9]*\).*/\1/p' \
			"$AIE_TOP/tools/bench/aie_bench/main.c") + 1))
	fi
	python3 "$AIE_TOP/tools/bench/profile-report.py" --op "$op" --n "$n" \
		--passes "$passes" $rounds \
		--ko "$AIE_TOP/module/allocinfo_ext.ko" --kernel "$AIE_KREL" "$prof" |
		tee "$prof/report.rst"
}

# aie_bench_kernel SPEC: every boot of one kernel, then its tables.
aie_bench_kernel() {
	local t0=$SECONDS raw auto
	aie_kernel "$1"
	aie_bench_build
	raw=$AIE_BENCH_OUT/$AIE_KREL.raw
	auto=$AIE_KDIR_HOST/include/config/auto.conf
	if [ "${AIE_BENCH_QUICK:-0}" = read ]; then
		: >"$raw"
		aie_bench_boot read ""
	elif [ "${AIE_BENCH_QUICK:-0}" = 1 ]; then
		: >"$raw"
		aie_bench_boot quick \
			"$(grep -qx 'CONFIG_MEM_ALLOC_PROFILING=y' "$auto" 2>/dev/null && echo sysctl.vm.mem_profiling=0)"
	elif grep -qx 'CONFIG_MEM_ALLOC_PROFILING=y' "$auto" 2>/dev/null; then
		: >"$raw"
		aie_bench_boot full "sysctl.vm.mem_profiling=0"
		aie_bench_boot profiler "sysctl.vm.mem_profiling=1"
		grep -qx 'CONFIG_PAGE_OWNER=y' "$auto" &&
			aie_bench_boot pageowner "page_owner=on sysctl.vm.mem_profiling=0"
	else
		: >"$raw"
		aie_bench_boot full ""
		[ "$1" = 6.12 ] && aie_bench_boot slabdebug "slab_debug=U"
	fi
	awk -v kernel="$AIE_KREL" -v date="$(date -u +%F)" \
		-v minutes="$(((SECONDS - t0 + 30) / 60))" \
		-f "$AIE_TOP/tools/vm/bench-report.awk" "$raw" |
		tee "$AIE_BENCH_OUT/$AIE_KREL.rst"
	echo
}

aie_deps
mkdir -p "$AIE_BENCH_OUT"
kernels=${AIE_BENCH_KERNELS:-}
if [ -z "$kernels" ]; then
	kernels=6.12
	[ -f "$AIE_ALLOCPROF" ] && kernels="$kernels $AIE_ALLOCPROF"
fi
if [ -n "${AIE_BENCH_PROFILE:-}" ]; then
	aie_bench_profile "${kernels%% *}"
	exit
fi
for k in $kernels; do
	aie_bench_kernel "$k"
done
