#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make run`: load allocinfo_ext, make the kernel allocate (files on tmpfs,
# processes, pipes, sockets), then print the top sites by live bytes.
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
