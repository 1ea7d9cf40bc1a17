#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh [RUNS] - build the control-parser fuzzer with clang's libFuzzer,
# ASan and UBSan, and run it for RUNS inputs (default 300000) from the seed
# corpus. Prints one TAP line; exits non-zero when the fuzzer found a crash
# or a command that does not read back as itself.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$here/../..
out=${AIE_FUZZ_OUT:-$top/build/fuzz}
runs=${1:-300000}
mkdir -p "$out/corpus"
if ! clang-14 -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -I"$top/include" -I"$top/module/lib" \
	"$here/ctl_fuzz.c" "$top/module/lib/ctl.c" -o "$out/ctl_fuzz" 2>"$out/build.log"; then
	echo "not ok - host: fuzz: control parser does not build (see $out/build.log)"
	exit 1
fi
cp "$here"/corpus/* "$out/corpus/"
if (cd "$out" && ./ctl_fuzz -runs="$runs" -max_len=600 -seed=1 \
	-print_final_stats=1 corpus) >"$out/fuzz.log" 2>&1; then
	echo "ok - host: fuzz: control parser, $runs inputs, no crash, every accepted command reads back as itself"
else
	echo "not ok - host: fuzz: control parser (see $out/fuzz.log)"
	exit 1
fi
