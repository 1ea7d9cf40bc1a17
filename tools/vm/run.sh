#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh - `make run`: boot KERNEL (default 6.12) with allocinfo_ext loaded,
# run a short workload that makes the kernel allocate, and print the top
# sites by live bytes. Fetches and builds only what that uses: the kernel,
# the module and the static tool; no kselftest, no linux-source.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

aie_prepare_run
set +e
aie_boot run "${AIE_TIMEOUT:-600}"
set -e
sed -n '/^AIE-BEGIN/,/^AIE-END/p' "$AIE_OUT/output.log" | grep -v '^AIE-'
grep -q '^AIE-END 0' "$AIE_OUT/output.log" ||
	aie_die "the run did not complete: see $AIE_OUT/console.log"
