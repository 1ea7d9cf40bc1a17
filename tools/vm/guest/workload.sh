#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make run`: load allocinfo_ext, make the kernel allocate (files on tmpfs,
# processes, pipes, sockets), then print the top sites by live bytes. On a
# kernel with /proc/allocinfo, also the whole-kernel agreement with it
# (allocinfo-ext compare, from a baseline taken just before the load).
tool=/kselftest/allocinfo_ext/allocinfo-ext
base=/tmp/allocinfo.base
[ -r /proc/allocinfo ] && $tool compare --save-baseline $base
insmod /aie/allocinfo_ext.ko || exit 1
echo "allocinfo_ext loaded; running the workload"
mkdir -p /tmp/w
i=0
while [ $i -lt 200 ]; do
	echo "file $i" > /tmp/w/f$i
	dd if=/dev/zero of=/tmp/w/d$i bs=4k count=4 2>/dev/null
	i=$((i + 1))
done
i=0
while [ $i -lt 50 ]; do
	(echo hello | cat | wc -c) >/dev/null
	i=$((i + 1))
done
nc -l -p 4000 >/dev/null &
sleep 1
i=0
while [ $i -lt 20 ]; do
	echo "message $i" | nc 127.0.0.1 4000 2>/dev/null &
	i=$((i + 1))
done
sleep 2
kill %1 2>/dev/null
echo
echo "== sort -g -r /proc/allocinfo_ext | head -25"
sort -g -r /proc/allocinfo_ext | head -25
echo
echo "== /proc/allocinfo_ext_stats"
cat /proc/allocinfo_ext_stats
echo
# Allocator-internal: a function module/core/callers.c lists, or any function
# named like an allocator entry point, listed or not.
echo "== live bytes charged to allocator-internal functions and helpers"
awk 'NR == FNR { fn[$1] = 1; next }
	/^ *-?[0-9]+ +[0-9]+ / {
		total += $1
		for (i = 3; i <= NF; i++) {
			if ($i !~ /^func:/)
				continue
			f = substr($i, 6)
			if (f in fn || f ~ /^_*(kmalloc|kmem_cache_alloc|krealloc|kv[mz]alloc|kvrealloc|kvcalloc|v[mz]alloc|alloc_pages|folio_alloc|get_free_page|get_zeroed_page|pcpu_alloc|alloc_percpu|kmemdup|kstrdup|memdup|vmemdup|strndup)/) {
				internal += $1
				print "  " $0
			}
		}
	}
	END {
		printf "allocator-internal share: %.3f%% (%d of %d live bytes)\n",
			total ? 100 * internal / total : 0, internal, total
	}' /aie/allocator-functions /proc/allocinfo_ext
if [ -r /proc/allocinfo ]; then
	echo
	echo "== allocinfo-ext compare --baseline (the 25 largest sites, then overall)"
	$tool compare --baseline $base -l 25
fi
