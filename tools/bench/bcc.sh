#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bcc.sh - `make bench-bcc`: the cost of BCC's memleak (bpfcc-tools) in
# kernel mode beside allocinfo_ext's, on Debian's 6.12 under QEMU with
# -icount shift=0 (a guest nanosecond is one instruction), one vCPU.
#
# Boots the kernel with a small initramfs that mounts a Debian root file
# system with BCC, shared read-only over 9p (bcc-rootfs.sh), and runs
# guest/bcc-bench.sh there: aie_bench times kmalloc(64)+kfree and
# alloc_pages(0)+__free_pages pairs with nothing attached, under
# memleak-bpfcc, with nothing again, then with allocinfo_ext loaded.
# AIE_BENCH_SRC: the aie_bench module's source (default tools/bench/aie_bench).
set -euo pipefail
. "$(dirname "$0")/../vm/lib.sh"
. "$(dirname "$0")/bcc-rootfs.sh"

AIE_BENCH_SRC=${AIE_BENCH_SRC:-$AIE_TOP/tools/bench/aie_bench}
[ -f "$AIE_BENCH_SRC/Kbuild" ] || aie_die "no aie_bench source in $AIE_BENCH_SRC"

aie_apt_install make gcc libc6-dev bc flex bison libelf-dev binutils cpio \
	gzip xz-utils qemu-system-x86 busybox-static debootstrap
aie_kernel 6.12
aie_bcc_rootfs

AIE_OUT=$AIE_BUILD/bcc-$AIE_KREL
st=$AIE_OUT/stage
rm -rf "$st" "$AIE_OUT/aie_bench" && mkdir -p "$st/aie" "$AIE_OUT/aie_bench"

aie_log "building allocinfo_ext and aie_bench for $AIE_KREL"
aie_make -s -C "$AIE_TOP" clean KDIR="$AIE_KDIR" >/dev/null 2>&1 || true
aie_make -s -C "$AIE_TOP" KDIR="$AIE_KDIR" >&2 || aie_die "module build failed"
cp "$AIE_BENCH_SRC"/Kbuild "$AIE_BENCH_SRC"/*.[ch] "$AIE_OUT/aie_bench/"
aie_make -s -C "$AIE_KDIR" M="$AIE_OUT/aie_bench" modules >&2 ||
	aie_die "aie_bench build failed"
strip --strip-debug -o "$st/aie/aie_bench.ko" "$AIE_OUT/aie_bench/aie_bench.ko"
strip --strip-debug -o "$st/aie/allocinfo_ext.ko" "$AIE_TOP/module/allocinfo_ext.ko"
cp "$AIE_TOP/tools/bench/guest/bcc-bench.sh" "$st/aie/"
aie_bcc_initramfs "$st"

# icount needs one TCG thread; one vCPU, so that the guest clock counts
# the instructions of the timed loop only.
export AIE_VM_MEM=${AIE_VM_MEM:-2G} AIE_VM_CPUS=1
export AIE_QEMU_EXTRA="-icount shift=0,sleep=off -virtfs local,path=$AIE_BCC_ROOT,mount_tag=aieroot,security_model=none,readonly=on"
set +e
aie_boot bcc "${AIE_TIMEOUT:-3600}"
set -e
log=$AIE_OUT/output.log
grep -q '^AIE-END 0' "$log" ||
	aie_die "the run did not complete: see $log and $AIE_OUT/console.log"
! grep -Eq "$AIE_BAD_LOG" "$AIE_OUT/console.log" ||
	aie_die "the kernel log has an error: see $AIE_OUT/console.log"

# The figures: instructions per pair (the fastest of 3 rounds), the cost
# added beside the first run with nothing attached, and the memory.
echo "kernel $AIE_KREL, QEMU -icount shift=0, 1 vCPU; instructions per pair"
awk '
$1 == "bench" {
	per = $5 / $4
	if ($2 == "none" && !($3 in base)) base[$3] = per
	printf "  %-14s %-13s %8.1f", $2, $3, per
	if ($2 != "none") printf "  %+8.1f", per - base[$3]
	printf "\n"
}
$1 == "map" {
	printf "  BPF map %-16s %-10s key %3d value %4d max_entries %7d memlock %10d\n",
		$4, $3, $5, $6, $7, $8
	maps += $8
}
$1 == "memleak_progs" { progs = $2 }
$1 == "memleak_start_s" { start = $2 }
$1 == "memleak_rss_kb" { rss = $2 }
$1 == "memleak_compiler_warnings" { warn = $2 }
$1 == "aie_memory_bytes" { aie = $2 }
END {
	printf "memleak: %d BPF programs, %d bytes in BPF maps, RSS %d kB\n", progs, maps, rss
	printf "memleak: %.1f s of guest time from start to attached ", start
	printf "(idle waits skipped forward by -icount sleep=off), %d compiler warnings\n", warn
	printf "allocinfo_ext: memory_bytes %d\n", aie
}' "$log"
sed -n '/^memleak output/,/^[a-z]/{/^memleak output\|^  /p}' "$log"
