#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make bench-latency`, in the guest (aie.mode=latency): with the timerlat
# tracer on, read each of allocinfo_ext's read paths again and again, and
# take the longest delay of the tracer's hard timer (irq) and of its
# thread (thread), in guest ns. Lines for tools/vm/bench-latency.sh:
#
#   L <set> <path> <irq ns> <thread ns> <timers>
#     set     none (no allocinfo_ext: /proc/slabinfo read instead),
#             before (/aie/before/allocinfo_ext.ko), after (the tree's)
#     timers  the timer's samples taken meanwhile
#
# Every set holds the same objects: AIE_LAT_MASS kmalloc(64) objects of
# the helper module, whose slabs follow one another in memory, so that
# the caches file walks their records at a stretch. allocinfo_ext loads
# with counter_slots=65536, the most a root user may give it ("reset"
# zeroes them all), and once more with lifetimes=1 for the lifetimes file.
T=/sys/kernel/tracing
hctl=/sys/kernel/debug/aie_helper/ctl
aie=/proc/allocinfo_ext
AIE_LAT_MASS=200000
AIE_LAT_PARAMS="counter_slots=65536"

mount -t tracefs nodev $T 2>/dev/null

# lat_on: the timerlat tracer on, every 100 us, its buffer empty
lat_on() {
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo 1 > $T/tracing_on
}

# lat_off SET PATH: the tracer stopped; the line of SET and PATH
lat_off() {
	echo 0 > $T/tracing_on
	awk -v set="$1" -v path="$2" '
	{
		ctx = ""
		for (i = 1; i < NF; i++) {
			if ($i == "context")
				ctx = $(i + 1)
			if ($i == "timer_latency")
				v = $(i + 1) + 0
		}
		if (ctx == "irq") { n++; if (v > irq) irq = v }
		if (ctx == "thread" && v > thr) thr = v
	}
	END { printf "L %s %s %d %d %d\n", set, path, irq, thr, n }' $T/trace
}

# measure SET PATH REPS CMD...: CMD run REPS times under the tracer
measure() {
	local set=$1 path=$2 reps=$3 i=0
	shift 3
	lat_on
	while [ $i -lt "$reps" ]; do
		"$@" >/dev/null 2>&1
		i=$((i + 1))
	done
	lat_off "$set" "$path"
}

ctl() {
	echo "$1" > $aie
}

# control writes of each kind but "reset", "capture" and "locate"
ctl_others() {
	ctl "sample 4096" && ctl "sample 0" && ctl "disable all" && ctl "enable all"
}

# paths SET: every read path of the module loaded
paths() {
	measure "$1" text 10 cat $aie
	measure "$1" ioctl 10 /aie/allocinfo-ext query --via ioctl -l 100000 $aie
	measure "$1" stats 40 cat ${aie}_stats
	measure "$1" caches 10 cat ${aie}_caches
	measure "$1" control-reset 10 ctl reset
	measure "$1" control-others 5 ctl_others
}

# held: the helper's objects made (after the module's load: tracked)
held() {
	echo "mass $AIE_LAT_MASS" > $hctl
}

# module SET KO: SET's figures with the module KO
module() {
	insmod "$2" $AIE_LAT_PARAMS || return 1
	held || return 1
	paths "$1"
	echo "free all" > $hctl
	rmmod allocinfo_ext || return 1
	insmod "$2" $AIE_LAT_PARAMS lifetimes=1 || return 1
	held || return 1
	measure "$1" lifetimes 10 cat ${aie}_lifetimes
	echo "free all" > $hctl
	rmmod allocinfo_ext
}

echo 8192 > $T/buffer_size_kb
echo timerlat > $T/current_tracer || { echo "no timerlat tracer"; exit 1; }
echo 100 > $T/osnoise/timerlat_period_us
echo 0 > $T/tracing_on
insmod /aie/aie_helper.ko || exit 1
held || exit 1
measure none all 40 cat /proc/slabinfo
echo "free all" > $hctl
module before /aie/before/allocinfo_ext.ko || exit 1
module after /aie/allocinfo_ext.ko || exit 1
echo nop > $T/current_tracer
