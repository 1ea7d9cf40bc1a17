#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bcc-bench.sh - in the guest of `make bench-bcc`, inside the Debian root
# file system: time kmalloc(64)+kfree and alloc_pages(0)+__free_pages
# pairs with aie_bench with nothing attached, while memleak-bpfcc traces
# the kernel allocators (its default options), with nothing attached
# again, and with allocinfo_ext loaded. Lines for the host:
#   bench STATE OP PAIRS FASTEST_NS SLOWEST_NS   (fastest of 3 rounds)
#   map ID TYPE NAME KEY VALUE MAX_ENTRIES MEMLOCK
#   memleak_rss_kb KB, memleak_start_s SECONDS (guest time), aie_memory_bytes BYTES
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
ctl=/sys/kernel/debug/aie_bench/ctl
ops="kmalloc-64:100000 pages-0:20000"

measure() {
	local state=$1 op n
	for op in $ops; do
		n=${op#*:}
		op=${op%%:*}
		echo "run $op $n" > $ctl || { echo "aie_bench: run $op failed"; return 1; }
		echo "bench $state $(cat $ctl)"
	done
}

uptime() { cut -d' ' -f1 /proc/uptime; }

# wait_for PATTERN FILE PID: until a line of FILE matches, while PID lives
wait_for() {
	local i=0
	while ! grep -q "$1" "$2"; do
		if ! kill -0 "$3" 2>/dev/null || [ $i -ge 1800 ]; then
			echo "memleak-bpfcc printed no '$1':"
			cat "$2"
			return 1
		fi
		sleep 1
		i=$((i + 1))
	done
}

insmod /aie/aie_bench.ko || exit 1
measure none || exit 1

# memleak in kernel mode: no -p, default interval (5 s), sample rate 1,
# reports allocations older than 500 ms.
out=/tmp/memleak.out
t0=$(uptime)
PYTHONUNBUFFERED=1 memleak-bpfcc > $out 2>&1 &
pid=$!
wait_for '^Attaching to kernel allocators' $out $pid || exit 1
echo "memleak_start_s $(uptime | awk -v t0=$t0 '{ print $1 - t0 }')"
echo "memleak_progs $(bpftool prog show | grep -c 'tracepoint')"
bpftool -j map show | python3 -c '
import json, sys
for m in json.load(sys.stdin):
    print("map", m["id"], m["type"], m.get("name", "-"), m.get("bytes_key", 0),
          m.get("bytes_value", 0), m.get("max_entries", 0),
          m.get("bytes_memlock", 0))
'
# twice: its reports every 5 s may fall into a round of the loop
measure memleak || exit 1
measure memleak || exit 1
echo "memleak_rss_kb $(awk '/^VmRSS:/ { print $2 }' /proc/$pid/status)"
# one report, to show it was working; SIGINT is ignored by a background
# job of a script, so TERM ends it
wait_for 'Top 10 stacks with outstanding' $out $pid || exit 1
kill -TERM $pid
wait $pid
echo "memleak_compiler_warnings $(grep -c 'warning:' $out)"
echo "memleak output from attaching on (14 lines):"
sed -n '/^Attaching/,$p' $out | head -n 14 | sed 's/^/  /'
measure none-after || exit 1

insmod /aie/allocinfo_ext.ko || exit 1
measure allocinfo_ext || exit 1
echo "aie_memory_bytes $(awk '$1 == "memory_bytes" { print $2 }' /proc/allocinfo_ext_stats)"
rmmod allocinfo_ext
rmmod aie_bench
exit 0
