#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check-all.sh - `make check-all`, and `make check` in CI (CI=true): the
# suite of check.sh on every kernel we test:
#
#   6.12    Debian's 6.12 (the host-side tests run with this one only)
#   6.1     Debian's 6.1
#   ../shared/kernels/linux-image-*.deb, each with the linux-headers deb
#           beside it: the allocprof and debug test kernels (a KASAN
#           kernel gets 2 GiB, see aie_vm_mem in lib.sh)
#
# AIE_CHECK_KERNELS (a space-separated list of check.sh KERNEL= values)
# replaces that list; AIE_SHARED_KERNELS names another directory of debs.
#
# Prints each kernel's TAP under a "# kernel <name>" heading, then one
# summary line per kernel, "# kernel <name>: N passed, N failed, N skipped
# (T s)", and closes with one line "N passed, N failed, N skipped" summed
# over the kernels. A kernel whose check.sh ends without its summary line, or
# fails without a failed test, counts one failure. Exits non-zero when
# any failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SHARED=${AIE_SHARED_KERNELS:-$AIE_TOP/../shared/kernels}
if [ -n "${AIE_CHECK_KERNELS:-}" ]; then
	read -r -a kernels <<<"$AIE_CHECK_KERNELS"
else
	kernels=(6.12 6.1)
	while IFS= read -r deb; do
		kernels+=("$deb")
	done < <(ls "$SHARED"/linux-image-*.deb 2>/dev/null | sort)
fi
[ ${#kernels[@]} -gt 0 ] || aie_die "AIE_CHECK_KERNELS is empty"

logs=$AIE_BUILD/check-all
mkdir -p "$logs"
total_pass=0 total_fail=0 total_skip=0 host_tests=1
summaries=()
re='^([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$'

for k in "${kernels[@]}"; do
	name=$(basename "$k")
	log=$logs/$name.log
	aie_log "check-all: kernel $name (log: $log)"
	start=$SECONDS
	rc=0
	AIE_CHECK_ONE=1 KERNEL=$k AIE_HOST_TESTS=$host_tests \
		AIE_SMP=${AIE_SMP:-$host_tests} \
		"$AIE_TOP/tools/vm/check.sh" >"$log" || rc=$?
	host_tests=0
	secs=$((SECONDS - start))

	last=$(tail -n 1 "$log")
	echo "# kernel $name"
	if [[ $last =~ $re ]]; then
		pass=${BASH_REMATCH[1]} fail=${BASH_REMATCH[2]} skip=${BASH_REMATCH[3]}
		sed '$d' "$log"
		if [ "$rc" != 0 ] && [ "$fail" = 0 ]; then
			echo "not ok - kernel $name: check.sh exited $rc with no failed test"
			fail=1
		fi
	else
		cat "$log"
		echo "not ok - kernel $name: check.sh exited $rc without its summary line"
		pass=0 fail=1 skip=0
	fi
	summaries+=("# kernel $name: $pass passed, $fail failed, $skip skipped (${secs} s)")
	total_pass=$((total_pass + pass))
	total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))
done

printf '%s\n' "${summaries[@]}"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
