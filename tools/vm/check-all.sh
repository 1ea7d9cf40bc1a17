#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check-all.sh - `make check-all`, and `make check` in CI (CI=true): the
# suite of check.sh on every kernel of kernels.sh's table, then on every
# test kernel of ../shared/kernels:
#
#   6.12 6.1 5.10 7 6.12-rt 6.12-cloud arm64-6.12 arm64-7
#           (AIE_CHECK_ARM64=0 leaves the arm64 kernels out)
#   ../shared/kernels/linux-image-*.deb and ../shared/kernels/*/linux-image-*.deb,
#           each with the linux-headers deb beside it: the allocprof and
#           debug 6.12 test kernels, the 7.3 allocprof one (a KASAN kernel
#           gets 2 GiB, see aie_vm_mem in lib.sh)
#
# AIE_CHECK_KERNELS (a space-separated list of check.sh KERNEL= values)
# replaces that list; AIE_SHARED_KERNELS names another directory of debs.
#
# The whole suite runs on the first kernel (Debian's 6.12, which also runs
# the host-side tests and the multi-threaded boot) and on a KASAN kernel;
# every other kernel runs the acceptance subset (AIE_ACCEPT_TESTS in
# lib.sh: a test of every hook). AIE_CHECK_SUITE=full runs the whole suite
# on every kernel.
#
# The kernels run AIE_CHECK_JOBS at a time (2: the host's two cores), a
# KASAN kernel first, the longest, then the first kernel; check.sh runs
# what comes before each boot under a lock, so only the guests overlap.
# No test is timed: a guest that shares the host with another runs slower
# and passes all the same.
#
# Prints each kernel's TAP under a "# kernel <name>" heading, then each
# failing kernel's failed tests and their reasons again ("# failures on
# kernel <name>:", for a reader of the output's tail), each kernel's
# three slowest test programs ("# kernel <name>: slowest: ..."), then one
# summary line per kernel, "# kernel <name>: N passed, N failed, N skipped
# (T s, suite)", and closes with one line "N passed, N failed, N skipped"
# summed over the kernels. A kernel whose check.sh ends without its
# summary line, or fails without a failed test, counts one failure. Exits
# non-zero when any failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SHARED=${AIE_SHARED_KERNELS:-$AIE_TOP/../shared/kernels}
if [ -n "${AIE_CHECK_KERNELS:-}" ]; then
	read -r -a kernels <<<"$AIE_CHECK_KERNELS"
else
	kernels=(6.12 6.1 5.10 7 6.12-rt 6.12-cloud)
	[ "${AIE_CHECK_ARM64:-1}" = 0 ] || kernels+=(arm64-6.12 arm64-7)
	while IFS= read -r deb; do
		kernels+=("$deb")
	done < <(ls "$SHARED"/linux-image-*.deb "$SHARED"/*/linux-image-*.deb \
		2>/dev/null | sort)
fi
[ ${#kernels[@]} -gt 0 ] || aie_die "AIE_CHECK_KERNELS is empty"

logs=$AIE_BUILD/check-all
mkdir -p "$logs"
rm -f "$logs"/*.log "$logs"/*.rc "$logs"/*.secs
total_pass=0 total_fail=0 total_skip=0
summaries=() failures=()
re='^([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$'

# A kernel spec's kbuild tree has KASAN: its boot is the longest.
kasan() {
	local rel conf
	case "$1" in *.deb) ;; *) return 1 ;; esac
	rel=$(dpkg-deb -f "$1" Package 2>/dev/null | sed 's/^linux-image-//')
	conf=$(dpkg-deb --fsys-tarfile "$(dirname "$1")/linux-headers-${rel}_"*.deb 2>/dev/null |
		tar -xO --wildcards '*/include/config/auto.conf' 2>/dev/null) || true
	grep -qx 'CONFIG_KASAN=y' <<<"$conf"
}

# suite K: the tests kernel K runs, "full" or "accept".
suite() {
	if [ "${AIE_CHECK_SUITE:-}" = full ] || [ "$1" = "${kernels[0]}" ] ||
		kasan "$1"; then
		echo full
	else
		echo accept
	fi
}

# run_one K HOST: check.sh on kernel K into $logs, with the host-side tests
# (and the multi-threaded boot) when HOST is 1.
run_one() {
	local k=$1 host=$2 name rc=0 start=$SECONDS tests=
	name=$(basename "$k")
	case "$(suite "$k")" in
	accept) tests=$AIE_ACCEPT_TESTS ;;
	esac
	aie_log "check-all: kernel $name, $(suite "$k") suite (log: $logs/$name.log)"
	AIE_CHECK_ONE=1 KERNEL=$k AIE_HOST_TESTS=$host AIE_KTEST_BOOT=$ktest \
		AIE_SMP=${AIE_SMP:-$host} AIE_TESTS=$tests \
		"$AIE_TOP/tools/vm/check.sh" >"$logs/$name.log" || rc=$?
	echo "$rc" >"$logs/$name.rc"
	echo $((SECONDS - start)) >"$logs/$name.secs"
}

# The queue: KASAN kernels first, then the rest in order; the first kernel
# of the list (Debian's 6.12 by default) runs the host-side tests.
# Linux's alloc_tag kselftest (check.sh's debug-vmlinux boot) on every
# kernel Debian has a -dbg package for; in CI on the first kernel alone,
# whose whole suite has it: each package is 1 GB to fetch and unpack once.
ktest=${AIE_KTEST_BOOT:-1}
[ "${CI:-}" = true ] && ktest=${AIE_KTEST_BOOT:-}

queue=()
for k in "${kernels[@]}"; do kasan "$k" && queue+=("$k"); done
for k in "${kernels[@]}"; do kasan "$k" || queue+=("$k"); done
# (the first kernel, the longest after a KASAN one, is first of the rest)
jobs_max=${AIE_CHECK_JOBS:-2}
running=0
for k in "${queue[@]}"; do
	if [ "$running" -ge "$jobs_max" ]; then
		wait -n || true
		running=$((running - 1))
	fi
	host=0
	[ "$k" = "${kernels[0]}" ] && host=1
	run_one "$k" "$host" &
	running=$((running + 1))
	sleep 2		# the first to start takes the build lock first
done
wait || true

for k in "${kernels[@]}"; do
	name=$(basename "$k")
	log=$logs/$name.log
	rc=$(cat "$logs/$name.rc" 2>/dev/null || echo 1)
	secs=$(cat "$logs/$name.secs" 2>/dev/null || echo 0)
	last=$(tail -n 1 "$log" 2>/dev/null || true)
	echo "# kernel $name"
	if [[ $last =~ $re ]]; then
		pass=${BASH_REMATCH[1]} fail=${BASH_REMATCH[2]} skip=${BASH_REMATCH[3]}
		sed '$d' "$log"
		if [ "$rc" != 0 ] && [ "$fail" = 0 ]; then
			echo "not ok - kernel $name: check.sh exited $rc with no failed test"
			fail=1
		fi
	else
		cat "$log" 2>/dev/null || true
		echo "not ok - kernel $name: check.sh exited $rc without its summary line"
		pass=0 fail=1 skip=0
	fi
	[ "$fail" = 0 ] || failures+=("$name")
	summaries+=("# kernel $name: $pass passed, $fail failed, $skip skipped (${secs} s, $(suite "$k"))")
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))
done

# What failed, again, where a reader of the output's tail sees it: each
# failing kernel's failed tests and the lines that say why (at most 30).
for name in "${failures[@]}"; do
	echo "# failures on kernel $name:"
	grep -E 'not ok|FAIL |:Expected |terminated|BUG:|WARNING:|Oops' \
		"$logs/$name.log" | head -n 30 | sed 's/^/#   /'
done
# Each kernel's three slowest programs, from the guest's "# took N s"
# lines: where the time of a run went.
for k in "${kernels[@]}"; do
	name=$(basename "$k")
	slow=$(awk '{ sub(/\r$/, "") }
		/^(not )?ok [0-9]+ selftests: / {
			for (i = 1; i < NF; i++)
				if ($i == "selftests:") prog = $(i + 2)
		}
		/^# took [0-9.]+ s$/ { print $3, prog }' \
		"$logs/$name.log" 2>/dev/null | sort -rn | head -n 3 |
		awk '{ printf "%s%s %s s", (NR > 1 ? ", " : ""), $2, $1 }')
	[ -z "$slow" ] || echo "# kernel $name: slowest: $slow"
done
printf '%s\n' "${summaries[@]}"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
