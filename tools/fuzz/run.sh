#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh [RUNS [TABLE_RUNS [FILE_RUNS [LEDGER_RUNS]]]] - build the fuzzers
# with clang's libFuzzer, ASan and UBSan, and run each for a bounded
# number of inputs from its seeds: the control-word parser (ctl_fuzz.c,
# RUNS, default 300000, seeds in corpus/), the tool's table reader
# (table_fuzz.c, TABLE_RUNS, default 300000, seeds: the tool's test
# fixtures, words: table.dict), and through its commands (file_fuzz.c)
# the lifetimes and stacks readers and compare's baseline (FILE_RUNS
# each, default 50000) and the ledger's inputs (LEDGER_RUNS, default
# 5000: each writes a file, and the leak checks slow it), seeded with the
# fixtures' files. Each also stops at AIE_FUZZ_SECONDS (default 120) of
# its own, so that make check's time stays bounded on a slow or shared
# host: the line says how many inputs it ran. Prints one TAP line per
# fuzzer; exits non-zero when one
# found a crash, a leak or broke its check (a command that does not read
# back as itself, an input refused without a message, sums past 2^61).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$here/../..
tool=$top/tools/allocinfo-ext
out=${AIE_FUZZ_OUT:-$top/build/fuzz}
runs=${1:-300000}
table_runs=${2:-300000}
file_runs=${3:-50000}
ledger_runs=${4:-5000}
seconds=${AIE_FUZZ_SECONDS:-120}
# shellcheck disable=SC2054
flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
	-std=gnu11 -D_GNU_SOURCE -I"$top/include")
failed=0

# fuzz NAME WHAT RUNS ARGS -- SOURCES...: build $out/NAME from SOURCES,
# run it RUNS times with libFuzzer ARGS in $out, one TAP line saying WHAT.
fuzz() {
	local name=$1 what=$2 n=$3 args=() src=()

	shift 3
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	shift
	src=("$@")
	if ! clang-14 "${flags[@]}" "${src[@]}" -o "$out/$name" 2>"$out/$name-build.log"; then
		echo "not ok - host: fuzz: $what does not build (see $out/$name-build.log)"
		failed=1
		return
	fi
	if (cd "$out" && "./$name" -runs="$n" -max_total_time="$seconds" \
		-seed=1 -print_final_stats=1 "${args[@]}") >"$out/$name.log" 2>&1; then
		echo "ok - host: fuzz: $what, $(sed -n 's/^stat::number_of_executed_units: *//p' \
			"$out/$name.log" | tail -n 1) of $n inputs in ${seconds} s at most"
	else
		echo "not ok - host: fuzz: $what (see $out/$name.log)"
		failed=1
	fi
}

mkdir -p "$out/corpus" "$out/table-corpus"
cp "$tool/tests/fixtures/cgroup/proc/allocinfo_ext_cgroups" "$out/table-corpus/cgroups.txt"
cp "$here"/corpus/* "$out/corpus/"
fuzz ctl_fuzz "control parser, no crash, every accepted command reads back as itself" \
	"$runs" -max_len=600 corpus -- \
	-I"$top/module/lib" "$here/ctl_fuzz.c" "$top/module/lib/ctl.c"
fuzz table_fuzz "table reader (tables, snapshots, OOM logs), Prometheus writer and -s/-r order, no crash" \
	"$table_runs" -max_len=4096 -dict="$here/table.dict" table-corpus "$tool/tests/fixtures" -- \
	-I"$tool" "$here/table_fuzz.c" "$tool/parse.c" "$tool/table.c" "$tool/util.c" \
	"$tool/textout.c" "$tool/oomlog.c" "$tool/prom.c" "$tool/order.c" \
	"$tool/promcg.c" "$tool/cgtable.c"
# The readers of the lifetimes and stacks files, through leaks and context
# (the whole tool linked, main() renamed), seeded with the fixtures' files.
mkdir -p "$out/lifetimes-corpus" "$out/stacks-corpus"
cp "$tool"/tests/fixtures/leaks-l*.txt "$tool/tests/fixtures/leaks-off.txt" "$out/lifetimes-corpus/"
cp "$tool"/tests/fixtures/stacks*.txt "$tool/tests/fixtures/bad-stacks.txt" "$out/stacks-corpus/"
export AIE_FUZZ_FIXTURES=$tool/tests/fixtures
export TMPDIR=$out	# where ledger_fuzz copies the fixtures' ledger root

# tool_objs: the whole tool compiled once for file_fuzz.c's builds, main()
# renamed, in $out/tool; the compilers' words in $out/tool/build.log.
tool_objs() {
	local c pids=() pid bad=0

	mkdir -p "$out/tool"
	: >"$out/tool/build.log"
	for c in "$tool"/*.c "$top/module/lib/ctl.c"; do
		clang-14 "${flags[@]/-fsanitize=fuzzer,/-fsanitize=fuzzer-no-link,}" \
			-I"$top/module/lib" -Dmain=aie_tool_main -c "$c" \
			-o "$out/tool/$(basename "${c%.c}").o" 2>>"$out/tool/build.log" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || bad=1
	done
	return $bad
}

if ! tool_objs; then
	echo "not ok - host: fuzz: the tool does not build for its fuzzers (see $out/tool/build.log)"
	exit 1
fi
tool_src=(-iquote "$tool" "$here/file_fuzz.c" "$out"/tool/*.o -ldw -lelf -lncursesw -ltinfo -lm)
fuzz leaks_fuzz "lifetimes reader (leaks -j), no crash, no leak, refusals said" \
	"$file_runs" -max_len=2048 lifetimes-corpus -- -DFUZZ_LEAKS "${tool_src[@]}"
fuzz context_fuzz "stacks reader (context -j), no crash, no leak, refusals said" \
	"$file_runs" -max_len=2048 stacks-corpus -- -DFUZZ_CONTEXT "${tool_src[@]}"
# compare's baseline, and a file of the ledger's root picked by a byte
mkdir -p "$out/compare-corpus" "$out/ledger-corpus"
cp "$tool"/tests/fixtures/cmp-*.txt "$tool/tests/fixtures/kernel.txt" "$out/compare-corpus/"
i=0
for f in proc/meminfo proc/slabinfo proc/vmallocinfo proc/allocinfo_ext dmesg; do
	{ printf '%b' "\\$(printf '%03o' "$i")"; cat "$tool/tests/fixtures/ledger/$f"; } \
		>"$out/ledger-corpus/seed$i"
	i=$((i + 1))
done
fuzz compare_fuzz "compare's baseline and matching (compare -j), no crash, no leak" \
	"$file_runs" -max_len=4096 compare-corpus -- -DFUZZ_COMPARE "${tool_src[@]}"
fuzz ledger_fuzz "ledger's inputs (meminfo, slabinfo, vmallocinfo, table, log), no crash, no leak" \
	"$ledger_runs" -max_len=8192 ledger-corpus -- -DFUZZ_LEDGER "${tool_src[@]}"
exit $failed
