#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench`, in the guest: time every operation of aie_bench and the
# userspace workloads under each configuration, and print the figures as
# lines for tools/vm/bench-report.awk (on the host) to put in tables:
#
#   R <config> <op> <operations> <fastest ns> [<slowest ns>]
#   R <config> <workload> <operations> <median ns> <fastest> <slowest>
#   E <workload> <type> <allocations> <operations>
#                                    allocations per type in one round of
#                                    a workload, under full tracking (two
#                                    rounds' less one round's)
#   N <config> <op>                  (not measured: config not available)
#   M <key> <value>                  memory figures
#   T <what> <rows> <bytes> <ns> <ns> <ns>
#                                    reading /proc/allocinfo_ext: just
#                                    after load (load), after the runs
#                                    (read0), with 10,000 more sites (read),
#                                    the same again (reread)
#   A <mode> <function> <sizes> <objects> <true bytes> <estimated bytes>
#
# aie.bench= on the kernel command line chooses the set: full (every
# configuration, memory, reading, accuracy), profiler (the operations with
# nothing loaded, named for the in-kernel profiler the boot enabled),
# slabdebug (kmalloc-64 under slab_debug=U), pageowner (pages-0 under
# page_owner=on), quick (full's configurations for five operations, no
# workloads, no memory, reading or accuracy: for a change to the hot path)
# or read (the reads of 10,000 sites only: for a change to the read path),
# or profile (one operation, for make bench-profile: see below).
set=$(sed -n 's/.*aie\.bench=\([a-z]*\).*/\1/p' /proc/cmdline)
quick=
ctl=/sys/kernel/debug/aie_bench/ctl
aie=/proc/allocinfo_ext

# <op>:<operations per round>, about 5 to 20 million instructions a round
ops="kmalloc-8:20000 kmalloc-64:20000 kmalloc-64-acct:20000 kmalloc-256:20000
kmalloc-1000:20000 kmalloc-4096:20000 kmalloc-16384:4000 kmem_cache:20000 pages-0:4000
pages-0-acct:4000 pages-3:1000 vmalloc:1000 percpu:4000 sites-1000:20000"
if [ "$set" = quick ]; then
	ops="kmalloc-64:20000 kmalloc-64-acct:20000 kmalloc-16384:4000 kmem_cache:20000
pages-0:4000 pages-0-acct:4000 vmalloc:1000"
	set=full
	quick=1
fi
[ "$set" = read ] || [ "$set" = profile ] && quick=1

# run_ops CONFIG OP:N...: each operation through aie_bench
run_ops() {
	local cfg=$1 spec op
	shift
	for spec in "$@"; do
		op=${spec%:*}
		if echo "run $op ${spec#*:}" > $ctl; then
			echo "R $cfg $(cat $ctl)"
		else
			echo "N $cfg $op"
		fi
	done
}

# the userspace workloads: one round each, then the rounds a figure takes
user_work="msg pipe 2 5 200
msg socket 2 5 200
files /tmp 2000"
user_rounds=11

# run_user CONFIG: the userspace workloads, their median of $user_rounds
run_user() {
	local w
	echo "$user_work" | while read -r w; do
		echo "R $1 $(/aie/benchload $w $user_rounds </dev/null)"
	done
}

# type_calls: the table's total_calls summed by type, "<type> <calls>"
type_calls() {
	awk '{ t = ""; c = 0
		for (i = 3; i <= NF; i++) {
			if ($i ~ /^type:/) t = substr($i, 6)
			if ($i ~ /^total_calls:/) c = substr($i, 13)
		}
		if (t != "") s[t] += c }
		END { for (t in s) print t, s[t] }' $aie
}

# user_events: the allocations one round of each workload makes, by type
# (full tracking: exact). Each count runs from a reset to a read of the
# table, and so holds, besides the rounds, what benchload's process and
# the read cost once: two rounds' count less one round's is one round's.
user_events() {
	local w
	echo "$user_work" | while read -r w; do
		if ! echo reset > $aie ||
		   ! /aie/benchload $w 1 </dev/null >/tmp/round; then
			echo "# user_events: $w failed"
			continue
		fi
		type_calls > /tmp/calls1
		if ! echo reset > $aie ||
		   ! /aie/benchload $w 2 </dev/null >/dev/null; then
			echo "# user_events: $w failed"
			continue
		fi
		type_calls > /tmp/calls2
		awk -v round="$(cat /tmp/round)" 'BEGIN { split(round, r) }
			NR == FNR { one[$1] = $2; next }
			{ print "E", r[1], $1, $2 - one[$1], r[2] }' \
			/tmp/calls1 /tmp/calls2
	done
}

run_all() {
	echo "# $1 at $(cut -d' ' -f1 /proc/uptime) s"
	run_ops "$1" $ops
	[ -n "$quick" ] || run_user "$1"
}

# read_table WHAT: one timed read of the table to its end, then its rows
# counted by another (the timed one is the first since what came before)
read_table() {
	local t
	t=$(/aie/benchload read $aie 1 | cut -d' ' -f2-)
	echo "T $1 $(wc -l < $aie) $t"
}

# na_all CONFIG: every row n/a
na_all() {
	local spec
	for spec in $ops msg-pipe: msg-socket: files:; do
		echo "N $1 ${spec%:*}"
	done
}

# accuracy MODE: the accuracy sets' true bytes beside their rows' live
# bytes, from one read of the table
accuracy() {
	local fn sizes nr bytes est
	echo "# accuracy $1 at $(cut -d' ' -f1 /proc/uptime) s"
	echo acc > $ctl || { echo "# acc failed"; return; }
	cat $aie > /tmp/table
	while read -r fn sizes nr bytes; do
		est=$(awk -v f="func:$fn" '{ for (i = 3; i <= NF; i++)
			if ($i == f) { s += $1; break } } END { print s + 0 }' /tmp/table)
		echo "A $1 $fn $sizes $nr $bytes $est"
	done < /sys/kernel/debug/aie_bench/acc
	echo release > $ctl
}

# cgroups_all: full tracking with "cgroups on", from a memory cgroup of
# cgroup v2 (the -acct operations charged to it: to their pairs)
cgroups_all() {
	local cg=/sys/fs/cgroup
	[ -e $cg/cgroup.controllers ] || { mkdir -p $cg && mount -t cgroup2 none $cg; }
	if echo +memory > $cg/cgroup.subtree_control && mkdir -p $cg/aie_bench &&
	   echo $$ > $cg/aie_bench/cgroup.procs && echo "cgroups on" > $aie; then
		run_all cgroups
		echo "cgroups off" > $aie
		echo $$ > $cg/cgroup.procs
		rmdir $cg/aie_bench
	else
		na_all cgroups
	fi
}

# objmap_all: full tracking with every object in the object map
# (slabmap=0), as before the slab map
objmap_all() {
	if insmod /aie/allocinfo_ext.ko hooks=slab,page,vmalloc,percpu slabmap=0; then
		run_all objmap
		rmmod allocinfo_ext
	else
		na_all objmap
	fi
}

# settle: wait until no other task wants the vCPU, as a round counts
# every instruction the vCPU runs. On arm64 the kernel's crypto
# self-tests (cryptomgr_test) run on for a second or more of guest time
# after boot, and would take half of each round. Settled: now nothing
# else runnable and no self-test left; or, after a self-test, none left
# and the vCPU idle for 98% of the last second (just after a sleep,
# other tasks the same tick woke are runnable beside this one).
settle() {
	local i=0 t0
	if [ "$(sed -n 's/^procs_running //p' /proc/stat)" -le 1 ] &&
	   ! grep -qsx cryptomgr_test /proc/[0-9]*/comm; then
		return
	fi
	while [ $i -lt 60 ]; do
		t0=$(cpu_time)
		sleep 1
		if ! grep -qsx cryptomgr_test /proc/[0-9]*/comm &&
		   [ "$(echo "$t0 $(cpu_time)" |
			awk '{ b = $3 - $1; print b * 50 <= b + $4 - $2 }')" = 1 ]; then
			echo "# settled at $(cut -d' ' -f1 /proc/uptime) s"
			return
		fi
		i=$((i + 1))
	done
	echo "# not settled at $(cut -d' ' -f1 /proc/uptime) s"
}

# cpu_time: the vCPU's busy and idle time so far, in clock ticks
cpu_time() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9, $5 + $6; exit }' /proc/stat
}

# memory figures every boot prints: the kmalloc-64 slot, and page_ext
facts() {
	local s=/sys/kernel/slab/kmalloc-64 n
	[ -r $s/slab_size ] &&
		echo "M kmalloc-64 $(cat $s/object_size) $(cat $s/slab_size)"
	n=$(dmesg | sed -n 's/.*allocated \([0-9]*\) bytes of page_ext.*/\1/p')
	echo "M page_ext_bytes ${n:-0}"
	echo "M pages_spanned $(awk '$1 == "spanned" { s += $2 } END { print s }' /proc/zoneinfo)"
}

insmod /aie/aie_bench.ko || exit 1
settle
# warm the userspace workloads (their first run after boot is slow)
if [ -z "$quick" ]; then
	echo "$user_work" | while read -r w; do
		/aie/benchload $w 1 </dev/null >/dev/null
	done
fi
facts
case "$set" in
profile)
	# aie.profile=<op>:<n> under aie.config=none or full, for make
	# bench-profile (tools/vm/bench.sh): the module's text address, and
	# with aie.syms the kernel's functions, for the host to name blocks by
	# (a userspace workload's n is its rounds)
	spec=$(sed -n 's/.*aie\.profile=\([a-z0-9_:-]*\).*/\1/p' /proc/cmdline)
	w=$(echo "$user_work" | awk -v op="${spec%:*}" \
		'($1 == "msg" ? $1 "-" $2 : $1) == op')
	case $(sed -n 's/.*aie\.config=\([a-z]*\).*/\1/p' /proc/cmdline) in
	none)
		cfg=none ;;
	full)
		insmod /aie/allocinfo_ext.ko hooks=slab,page,vmalloc,percpu || exit 1
		echo "M text $(cat /sys/module/allocinfo_ext/sections/.text)"
		cfg=full ;;
	*)
		echo "aie.config= wants none or full"
		exit 1 ;;
	esac
	if [ -n "$w" ]; then
		echo "R $cfg $(/aie/benchload $w "${spec#*:}" </dev/null)"
	else
		run_ops $cfg "$spec"
	fi
	[ $cfg = full ] && rmmod allocinfo_ext
	grep -q 'aie\.syms' /proc/cmdline &&
		awk '$2 ~ /^[tT]$/ && NF == 3 { print "S", $1, $3 }' /proc/kallsyms ;;
profiler)
	run_all profiler ;;
slabdebug)
	run_ops slab_debug kmalloc-64:20000 ;;
pageowner)
	run_ops page_owner pages-0:4000 ;;
read)
	insmod /aie/allocinfo_ext.ko || exit 1
	echo "hold 10000" > $ctl || exit 1
	read_table read
	read_table reread
	echo release > $ctl
	rmmod allocinfo_ext ;;
full)
	run_all none
	insmod /aie/aie_floor.ko || exit 1
	run_all floor
	rmmod aie_floor
	insmod /aie/allocinfo_ext.ko hooks=slab,page,vmalloc,percpu || exit 1
	read_table load
	echo "disable all" > $aie || exit 1
	run_all disabled
	echo "enable all" > $aie || exit 1
	run_all full
	sed 's/^/M stat /' /proc/allocinfo_ext_stats
	awk '$1 == "MemTotal:" { print "M stat mem_total_bytes", $2 * 1024 }' /proc/meminfo
	cgroups_all
	if [ -n "$quick" ]; then
		echo "sample 524288" > $aie && run_all sample
		rmmod allocinfo_ext
		objmap_all
		rmmod aie_bench
		exit 0
	fi
	read_table read0
	user_events
	accuracy exact
	if echo "sample 524288" > $aie; then
		run_all sample
		accuracy sample
		# the error an interval small enough for sites of 1 MiB gives
		echo "sample 1024" > $aie && accuracy sample1k
		echo "sample 0" > $aie || exit 1
	else
		echo "# sample 524288: refused; its rows are n/a"
		na_all sample
	fi
	# last: the 10,000 sites stay in the table until unload
	echo "# hold 10000 at $(cut -d' ' -f1 /proc/uptime) s"
	echo "hold 10000" > $ctl || exit 1
	echo "# read at $(cut -d' ' -f1 /proc/uptime) s"
	read_table read
	read_table reread
	echo release > $ctl
	echo "# unload at $(cut -d' ' -f1 /proc/uptime) s"
	rmmod allocinfo_ext
	objmap_all ;;
*)
	echo "unknown aie.bench=$set"
	exit 1 ;;
esac
rmmod aie_bench
echo "# end at $(cut -d' ' -f1 /proc/uptime) s"
