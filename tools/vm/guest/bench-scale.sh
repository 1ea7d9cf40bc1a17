#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench-scale`, in the guest (aie.mode=scale): load allocinfo_ext
# first with its defaults, as at boot, then have the helper hold aie.objs= kmalloc(64)
# objects and aie.pages= pages, and measure what grows with them. Lines
# for tools/vm/bench-scale.sh (on the host) to put in its table:
#
#   S <key> <value>          a figure of this boot:
#     possible               possible CPUs
#     memtotal               MemTotal, bytes
#     insmod_ns              the module's insmod, guest ns
#     mass_ns, base_mass_ns  the helper's mass allocation, with and
#                            without the module
#     none_<op>, live_<op>   instr/op of aie_bench's pairs, with none of
#                            the helper's objects and with them all live
#     base_none_<op>, base_live_<op>
#                            the same before allocinfo_ext is loaded, with
#                            none of the objects and with them all live
#                            (then freed)
#     tracked, untracked, memory_bytes
#                            the stats file's, after the mass allocation
#     read<n>_first_ns, read<n>_ns, read<n>_rows
#                            two reads of /proc/allocinfo_ext with n
#                            sites in the table (16384 at the defaults,
#                            65536 loaded again with max_sites=65536)
#     oom_ns, oom_rows       one OOM report of the module (16384 sites)
#     oom64k_ns, oom64k_rows the same with 65536 sites
#     oomold_ns, oomold_rows the same with 65536 sites, of the module
#                            before a change (/aie/allocinfo_ext_old.ko,
#                            when AIE_SCALE_OLD= packed one)
#   M <stats line>           the stats file after the mass allocation
#
# Under icount (tools/vm/bench-scale.sh) a guest ns is an instruction.
# The kernel log's timestamps (microseconds) time the insmod and the OOM
# report; aie_bench and benchload read the clock themselves.
objs=$(sed -n 's/.*aie\.objs=\([0-9]*\).*/\1/p' /proc/cmdline)
pages=$(sed -n 's/.*aie\.pages=\([0-9]*\).*/\1/p' /proc/cmdline)
ctl=/sys/kernel/debug/aie_bench/ctl
hctl=/sys/kernel/debug/aie_helper/ctl
aie=/proc/allocinfo_ext
stats=/proc/allocinfo_ext_stats
# the pairs: aie_bench's operations, as make bench runs them
ops="kmalloc-64:20000 pages-0:4000"

# mark TAG: a line "aie-scale: TAG" in the kernel log
mark() {
	echo "aie-scale: $1" > /dev/kmsg
}

# log_ns: the kernel log, each line's timestamp in ns before it
log_ns() {
	dmesg | sed -n 's/^\[ *\([0-9]*\)\.\([0-9]\{6\}\)\] /\1\2000 /p' |
		sed 's/^0*\([0-9]\)/\1/'
}

# between A B: the guest ns from mark A to mark B
between() {
	log_ns | awk -v a="aie-scale: $1" -v b="aie-scale: $2" '
		substr($0, index($0, " ") + 1) == a { t0 = $1 }
		substr($0, index($0, " ") + 1) == b { t1 = $1 }
		END { if (t0 != "" && t1 != "") print t1 - t0; else print "-" }'
}

stat() {
	awk -v k="$1" '$1 == k { print $2; exit }' $stats
}

# settle: until no other task wants the vCPU (at most 30 s of guest
# time), as a timed round counts every instruction the vCPU runs; the
# workqueue that grows the module's records runs after a mass allocation
settle() {
	local i=0
	while [ $i -lt 30 ] &&
	      [ "$(sed -n 's/^procs_running //p' /proc/stat)" -gt 1 ]; do
		sleep 1
		i=$((i + 1))
	done
	sleep 1
}

# pairs WHEN: instructions per pair of each operation
pairs() {
	local spec op
	settle
	for spec in $ops; do
		op=${spec%:*}
		if echo "run $op ${spec#*:}" > $ctl; then
			echo "S ${1}_$op $(awk '{ printf "%.1f", $3 / $2 }' $ctl)"
		else
			echo "S ${1}_$op -"
		fi
	done
}

# hold_sites N: hold objects at as many new call sites as bring the table
# to N sites (the sites of earlier holds stay in it)
held=0
hold_sites() {
	local n have
	have=$(stat sites)
	echo release > $ctl
	n=$((held + $1 - have))
	[ $n -gt $held ] || n=$held
	if ! echo "hold $n" > $ctl; then
		echo "# hold $n failed"
	fi
	held=$n
	settle
}

# read_sites N: hold_sites N, then two timed reads: the first names the
# new sites, the second is the figure
read_sites() {
	hold_sites "$1"
	set -- "$1" $(/aie/benchload read $aie 1)
	echo "S read$1_first_ns $4"
	set -- "$1" $(/aie/benchload read $aie 1)
	echo "S read$1_ns $4"
	echo "S read$1_rows $(stat sites)"
}

# oom_report TAG: a task in a memory cgroup of 8 MiB of its own asks the
# helper for accounted objects until the cgroup's OOM killer kills it;
# the report is timed from the kernel's line before the module's first
# (the end of the kernel's own report) to the line after its last,
# console output included: "S oom<TAG>_ns", "S oom<TAG>_rows"
oom_report() {
	local cg=/tmp/cg
	mkdir -p $cg
	if ! { grep -q " $cg cgroup2 " /proc/mounts ||
	       mount -t cgroup2 none $cg; } ||
	   ! echo +memory > $cg/cgroup.subtree_control ||
	   ! mkdir $cg/aie_oom$1 || ! echo 8M > $cg/aie_oom$1/memory.max; then
		echo "S oom$1_ns -"
		return
	fi
	# the expect lines let the report's stack dump pass aie_bad_log()
	echo "aie-expect-oom: begin scale" > /dev/kmsg
	mark "oom begin$1"
	sh -c "echo \$\$ > $cg/aie_oom$1/cgroup.procs &&
		echo 'oom kmalloc_oom' > $hctl" 2>/dev/null
	mark "oom end$1"
	echo "aie-expect-oom: end scale" > /dev/kmsg
	log_ns | awk -v tag="$1" -v begin="aie-scale: oom begin$1" '
		substr($0, index($0, " ") + 1) == begin { on = 1 }
		!on { next }
		/ allocinfo_ext: oom: victim / && !t0 { t0 = prev; in_report = 1 }
		in_report && !/ allocinfo_ext: / { t1 = $1; in_report = 0 }
		in_report { rows++ }
		{ prev = $1 }
		END {
			if (t0 && t1) print "S oom" tag "_ns", t1 - t0
			else print "S oom" tag "_ns -"
			print "S oom" tag "_rows", rows - 1
		}'
}

echo "S possible $(awk -F- '{ print $NF + 1 }' /sys/devices/system/cpu/possible)"
echo "S memtotal $(awk '$1 == "MemTotal:" { print $2 * 1024 }' /proc/meminfo)"
insmod /aie/aie_bench.ko || exit 1
insmod /aie/aie_helper.ko || exit 1
# the pairs without the module: with none of the objects, with them all
mass() {
	[ "${objs:-0}" = 0 ] || echo "mass $objs" > $hctl || exit 1
	[ "${pages:-0}" = 0 ] || echo "masspages $pages" > $hctl || exit 1
}
pairs base_none
mark "base mass begin"
mass
mark "base mass end"
echo "S base_mass_ns $(between "base mass begin" "base mass end")"
pairs base_live
echo "free all" > $hctl || exit 1
settle
# the module first, as at boot, with its defaults
mark "insmod begin"
insmod /aie/allocinfo_ext.ko || exit 1
mark "insmod end"
echo "S insmod_ns $(between "insmod begin" "insmod end")"
pairs none
mark "mass begin"
mass
mark "mass end"
echo "S mass_ns $(between "mass begin" "mass end")"
settle
sed 's/^/M /' $stats
for k in tracked_objects untracked memory_bytes; do
	echo "S $k $(stat $k)"
done
pairs live
read_sites 16384
oom_report
# 65,536 sites want max_sites=65536: the module again, with it (the
# helper's objects, made before, are not tracked by this one)
rmmod allocinfo_ext || exit 1
insmod /aie/allocinfo_ext.ko max_sites=65536 || exit 1
held=0
read_sites 65536
oom_report 64k
# the same with the module before a change, at the same 65,536 sites
if [ -e /aie/allocinfo_ext_old.ko ]; then
	rmmod allocinfo_ext || exit 1
	insmod /aie/allocinfo_ext_old.ko max_sites=65536 || exit 1
	held=0
	hold_sites 65536
	oom_report old
fi
echo "# end at $(cut -d' ' -f1 /proc/uptime) s"
