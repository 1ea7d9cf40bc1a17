#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh - `make check`: build, boot KERNEL (default 6.12) under QEMU,
# run the kselftests, print their TAP (after that of the host-side tests,
# run before the boot: the tool's, make install's and DKMS's) and a
# closing line "N passed, N failed, N skipped". Exits non-zero when a test
# failed, the guest did not reach its end, or its kernel log has a BUG,
# WARNING, Oops, KASAN or lockdep report.
#
# In CI (CI=true in the environment, as CI sets it) make check covers
# every kernel: it runs check-all.sh instead, which runs this script on
# Debian's 6.12 and 6.1 and on every linux-image-*.deb in ../shared/kernels
# (the debug kernel among them, given 2 GiB), prints one summary line per
# kernel and closes with the same single line, summed over the kernels.
# AIE_CHECK_ONE=1 keeps make check on one kernel even then.
#
# AIE_TESTS=a_test,b_test runs only those test programs (check-all.sh
# gives the acceptance subset, AIE_ACCEPT_TESTS in lib.sh, to most
# kernels). AIE_HOST_TESTS=0 skips the host-side tests (check-all.sh runs them
# once); AIE_TIMEOUT bounds each boot (900 s, 3600 s for a KASAN kernel);
# AIE_VM_MEM sets the guest's memory, AIE_VM_NUMA=N splits it into N NUMA
# nodes. The whole suite also boots a two-node guest for numa_test
# (AIE_NUMA_BOOT=0: not) and one with the kernel's debug vmlinux for
# kernel_ioctl_test (AIE_KTEST_BOOT, below). AIE_MODE=smoke (make smoke) builds
# no module and runs each test program once, to list its tests.
#
# Everything before the boots (packages, unpacking, the builds in the
# source tree, the host-side tests) runs under a lock on
# build/.prepare.lock, so that check-all.sh can run several of these
# scripts at once: their boots overlap, nothing else does.
set -euo pipefail
if [ "${CI:-}" = true ] && [ -z "${AIE_CHECK_ONE:-}" ]; then
	exec "$(dirname "$0")/check-all.sh"
fi
. "$(dirname "$0")/lib.sh"

mkdir -p "$AIE_BUILD"
exec 9>"$AIE_BUILD/.prepare.lock"
flock 9
aie_prepare
host_tap=$AIE_OUT/host.tap
if [ "${AIE_HOST_TESTS:-1}" = 0 ]; then
	: >"$host_tap"
else
	aie_host_tests "$host_tap"
fi
flock -u 9
exec 9>&-
cat "$host_tap"
limit=${AIE_TIMEOUT:-$(aie_vm_limit)}

# keep_logs OUT CON: a boot's output and kernel log kept as OUT and CON
# (empty when it wrote none); the output's TAP printed.
keep_logs() {
	mv "$AIE_OUT/output.log" "$1" 2>/dev/null || : >"$1"
	mv "$AIE_OUT/console.log" "$2" 2>/dev/null || : >"$2"
	sed -n '/^AIE-BEGIN/,/^AIE-END/p' "$1" | grep -v '^AIE-'
}

# First, the storms of stress_test on 4 vCPUs under multi-threaded TCG:
# the hooks truly run on every CPU at once (the main boot interleaves its
# vCPUs on one host thread). The module loads and unloads once there.
# AIE_SMP=0 skips it; the stress mode, which has its own CPUs, skips it.
smp_out=$AIE_OUT/output-smp.log
smp_con=$AIE_OUT/console-smp.log
rm -f "$smp_out" "$smp_con"
if [ "${AIE_SMP:-1}" != 0 ] && [ "${AIE_MODE:-check}" = check ]; then
	# A guest that dies before its init starts ran none of our code: under
	# multi-threaded TCG the kernel itself sometimes takes an int3 while it
	# patches its own jump labels in early boot (seen once in four CI runs,
	# on the allocprof kernel, no module loaded). It boots again, at most
	# twice; a failure after init started counts, always.
	for try in 1 2 3; do
		set +e
		AIE_ACCEL=tcg,thread=multi AIE_VM_CPUS=4 \
			AIE_APPEND="aie.stress_seconds=${AIE_SMP_SECONDS:-20} aie.slot_seconds=${AIE_SMP_SECONDS:-20} ${AIE_APPEND:-}" \
			aie_boot smp "$limit"
		smp_rc=$?
		set -e
		grep -q '^AIE-BEGIN' "$AIE_OUT/output.log" 2>/dev/null && break
		echo "# vm smp: the guest died before its init (try $try), see console-smp-$try.log"
		cp "$AIE_OUT/console.log" "$AIE_OUT/console-smp-$try.log" 2>/dev/null || true
	done
	keep_logs "$smp_out" "$smp_con"
fi

# Then numa_test on a guest of two NUMA nodes (it skips on the main
# boot's one node): with the whole suite, on a kernel without KASAN,
# unless the main boot has nodes of its own (AIE_VM_NUMA) or
# AIE_NUMA_BOOT=0. A boot and one test program, 20 s of guest time.
numa_out=$AIE_OUT/output-numa.log
numa_con=$AIE_OUT/console-numa.log
rm -f "$numa_out" "$numa_con"
if [ "${AIE_MODE:-check}" = check ] && [ -z "${AIE_TESTS:-}" ] &&
	[ -z "${AIE_VM_NUMA:-}" ] && [ "${AIE_NUMA_BOOT:-1}" != 0 ] && ! aie_kasan; then
	set +e
	AIE_VM_NUMA=2 AIE_APPEND="aie.tests=numa_test ${AIE_APPEND:-}" \
		aie_boot check "$limit"
	numa_rc=$?
	set -e
	keep_logs "$numa_out" "$numa_con"
fi

# Then Linux's own test of the allocinfo ioctls (kernel_ioctl_test, which
# skips elsewhere) on a guest with the kernel's debug vmlinux in its
# initramfs (kernel-test.sh): with the whole suite, or with
# AIE_KTEST_BOOT=1 (check-all outside CI gives it to every kernel);
# AIE_KTEST_BOOT=0: not. A kernel with no -dbg package has none.
dbg_out=$AIE_OUT/output-dbg.log
dbg_con=$AIE_OUT/console-dbg.log
rm -f "$dbg_out" "$dbg_con"
if [ "${AIE_MODE:-check}" = check ] && [ "${AIE_KTEST_BOOT:-}" != 0 ] &&
	{ [ -z "${AIE_TESTS:-}" ] || [ "${AIE_KTEST_BOOT:-}" = 1 ]; }; then
	if aie_dbg_initrd; then
		set +e
		# 3 GiB: the initramfs holds the vmlinux (680 MB for 5.10) twice
		# while the kernel unpacks it; with 2, 5.10's ran out
		AIE_VM_MEM=3G AIE_INITRD=$AIE_OUT/initramfs-dbg.cpio \
			AIE_APPEND="aie.tests=kernel_ioctl_test ${AIE_APPEND:-}" \
			aie_boot check "$limit"
		dbg_rc=$?
		set -e
		rm -f "$AIE_OUT/initramfs-dbg.cpio"
		keep_logs "$dbg_out" "$dbg_con"
	else
		echo "# vm dbg: Debian has no linux-image-$AIE_KREL-dbg: kernel_ioctl_test not run"
	fi
fi

set +e
AIE_APPEND="${AIE_TESTS:+aie.tests=$AIE_TESTS} ${AIE_APPEND:-}" \
	aie_boot "${AIE_MODE:-check}" "$limit"
qemu_rc=$?
set -e

out=$AIE_OUT/output.log
con=$AIE_OUT/console.log
touch "$out" "$con"
sed -n '/^AIE-BEGIN/,/^AIE-END/p' "$out" | grep -v '^AIE-'

# Checks made on the host, reported as TAP lines of their own.
# guest_checks LABEL GUEST OUT CON RC: into host, whether GUEST, whose
# output and kernel log are OUT and CON and whose qemu exited RC, ran to
# its end, and logged no report.
guest_checks() {
	local label=$1 guest=$2 out=$3 con=$4 rc=$5 bad
	if grep -q '^AIE-END' "$out"; then
		host+=("ok - $label: $guest ran to its end")
	else
		host+=("not ok - $label: $guest did not reach its end (qemu/timeout status $rc)")
	fi
	bad=$(aie_bad_log "$con")
	if [ -z "$bad" ]; then
		host+=("ok - $label: kernel log free of BUG/WARNING/Oops/KASAN/lockdep reports")
	else
		host+=("not ok - $label: kernel log has reports (see $con)")
		echo "$bad" | sed 's/^/# kernel: /'
	fi
}
host=()
guest_checks vm "the guest" "$out" "$con" "$qemu_rc"
if [ -e "$smp_out" ]; then
	guest_checks "vm smp" "the multi-threaded guest" "$smp_out" "$smp_con" "$smp_rc"
fi
if [ -e "$numa_out" ]; then
	guest_checks "vm numa" "the two-node guest" "$numa_out" "$numa_con" "$numa_rc"
fi
if [ -e "$dbg_out" ]; then
	guest_checks "vm dbg" "the guest with the debug vmlinux" "$dbg_out" "$dbg_con" "$dbg_rc"
fi
printf '%s\n' "${host[@]}"

# Count test cases: the host-side tests ("ok - host: ...", skipped when
# "# SKIP" follows), the harness's own lines ("# ok N name" one level
# in), then each program the runner marks "not ok" without a failed case
# of its own (a crash or a timeout), then the host checks.
summary=$( { cat "$host_tap"
	[ -e "$smp_out" ] && sed -n '/^AIE-BEGIN/,/^AIE-END/p' "$smp_out"
	[ -e "$numa_out" ] && sed -n '/^AIE-BEGIN/,/^AIE-END/p' "$numa_out"
	[ -e "$dbg_out" ] && sed -n '/^AIE-BEGIN/,/^AIE-END/p' "$dbg_out"
	sed -n '/^AIE-BEGIN/,/^AIE-END/p' "$out"
	printf '%s\n' "${host[@]}"; } | awk '
	/^# (not )?ok [0-9]+ / {
		cases++
		if ($2 == "not") { fail++; prog_fail = 1 }
		else if ($0 ~ /# SKIP/) skip++
		else pass++
		next
	}
	/^(not )?ok [0-9]+ selftests:/ {
		if ($1 == "not" && !prog_fail) fail++
		else if ($1 == "ok" && $0 ~ /# SKIP/ && !cases) skip++
		cases = 0
		prog_fail = 0
		next
	}
	/^ok - .*# SKIP/ { skip++; next }
	/^ok - / { pass++; next }
	/^not ok - / { fail++; next }
	END { printf "%d %d %d\n", pass, fail, skip }')
read -r pass fail skip <<<"$summary"
if [ "$pass" -eq 0 ] && [ "$fail" -eq 0 ]; then
	fail=1
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
