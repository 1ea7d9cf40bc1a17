# SPDX-License-Identifier: GPL-2.0
# bench-report.awk - the tables of `make bench` for one kernel, in
# reStructuredText, from the lines tools/vm/guest/bench.sh printed in
# each of the kernel's boots (see there). Variables: kernel, date,
# minutes (wall-clock time of the kernel's boots and build).
#
# Costs are per operation: nanoseconds of the fastest round (the median
# round for the userspace workloads) divided by its operations; under
# -icount shift=0 that is instructions. "added" and
# "ratio" compare with the same operation with nothing loaded (the first
# boot); "x floor" divides the added cost by the floor's, where the floor
# adds at least 10 instructions and 2%, for the in-kernel operations.

function cost(c, o) {
	return ns[c, o] / n[c, o]
}

# instr/op of config c over that of "not loaded", for op o
function added(c, o) {
	return cost(c, o) - cost("none", o)
}

function rule() {
	printf "%s  %s  %s  %s  %s  %s\n", dashes(14), dashes(18), dashes(9),
		dashes(8), dashes(6), dashes(7)
}

function dashes(w,   s) {
	s = ""
	while (w-- > 0)
		s = s "="
	return s
}

# The userspace workloads' rounds: median, fastest and slowest, per op.
function rounds_table(   i, j, o, c, hr, any) {
	for (i = 1; i <= nops; i++)
		for (j = 1; j <= nconfigs; j++)
			if ((configs[j], ops[i]) in lo)
				any = 1
	if (!any)
		return
	hr = sprintf("%s  %s  %s  %s  %s  %s", dashes(14), dashes(18),
		dashes(9), dashes(9), dashes(9), dashes(7))
	print ""
	print hr
	printf "%-14s  %-18s  %9s  %9s  %9s  %7s\n", "workload",
		"configuration", "median", "fastest", "slowest", "spread"
	print hr
	for (i = 1; i <= nops; i++) {
		o = ops[i]
		for (j = 1; j <= nconfigs; j++) {
			c = configs[j]
			if (!((c, o) in lo))
				continue
			printf "%-14s  %-18s  %9.1f  %9.1f  %9.1f  %6.1f%%\n", o,
				label[c], cost(c, o), lo[c, o] / n[c, o],
				hi[c, o] / n[c, o],
				100 * (hi[c, o] - lo[c, o]) / ns[c, o]
		}
	}
	print hr
	print ""
	print "Instructions per operation of the workloads' rounds: the median"
	print "(the table's figure), the fastest and the slowest; spread:"
	print "(slowest - fastest) / median."
}

# The allocations a round of each workload makes per operation, by type,
# under full tracking, and what they would add at the pair costs of the
# table (slab at kmem_cache's, pages at pages-0's), beside what the
# workload's full tracking row adds.
function events_table(   i, o, t, k, hr, est, per, pair, base, line) {
	if (!nev)
		return
	split("slab page vmalloc percpu", evt)
	pair["slab"] = "kmem_cache"
	pair["page"] = "pages-0"
	pair["vmalloc"] = "vmalloc"
	pair["percpu"] = "percpu"
	hr = sprintf("%s  %s  %s  %s  %s  %s  %s", dashes(14), dashes(7),
		dashes(7), dashes(7), dashes(7), dashes(9), dashes(9))
	print ""
	print hr
	printf "%-14s  %7s  %7s  %7s  %7s  %9s  %9s\n", "workload", "slab",
		"page", "vmalloc", "percpu", "expected", "measured"
	print hr
	for (i = 1; i <= nev; i++) {
		o = ev_op[i]
		if (!ev_ops[o])
			continue
		est = 0
		line = sprintf("%-14s", o)
		for (k = 1; k <= 4; k++) {
			t = evt[k]
			per = ev[o, t] / ev_ops[o]
			line = line sprintf("  %7.3f", per)
			if ((("full", pair[t]) in n) && (("none", pair[t]) in n))
				est += per * added("full", pair[t])
		}
		base = (("none", o) in n) ? cost("none", o) : 0
		if (base && (("full", o) in n))
			line = line sprintf("  %+9.1f  %+9.1f", est,
					    added("full", o))
		else
			line = line sprintf("  %+9.1f  %9s", est, "n/a")
		print line
	}
	print hr
	print ""
	print "Allocations per operation in one round of each workload, by type,"
	print "from the total_calls of /proc/allocinfo_ext (full tracking: two"
	print "rounds after a reset less one round after a reset), fork and exit"
	print "of its processes included. expected: each"
	print "type's allocations times the added cost of its pair in the table"
	print "(slab at kmem_cache's, pages at pages-0's, vmalloc's, percpu's),"
	print "frees included; measured: the workload's full tracking row."
}

function pct(est, tru) {
	return tru ? sprintf("%+.1f%%", 100 * (est - tru) / tru) : "-"
}

BEGIN {
	nconfigs = split("none floor disabled full cgroups objmap sample profiler slab_debug page_owner", configs)
	label["none"] = "not loaded"
	label["floor"] = "floor"
	label["disabled"] = "disable all"
	label["full"] = "full tracking"
	label["cgroups"] = "cgroups on"
	label["objmap"] = "full, slabmap=0"
	label["sample"] = "sample 524288"
	label["profiler"] = "in-kernel profiler"
	label["slab_debug"] = "slab_debug=U"
	label["page_owner"] = "page_owner=on"
}

# the guest's serial port ends its lines with \r\n
{ sub(/\r$/, "") }

$1 == "B" {
	boot = $2
	bootline[++nboots] = $0
	sub(/^B [a-z]+ ?/, "", bootline[nboots])
	bootset[nboots] = boot
	next
}

$1 == "R" || $1 == "N" {
	if (!(($3) in seen)) {
		seen[$3] = 1
		ops[++nops] = $3
	}
	have[$2, $3] = 1
	if ($1 == "R") {
		n[$2, $3] = $4
		ns[$2, $3] = $5
		if ($3 ~ /^(msg-|files)/ && NF >= 7) {
			lo[$2, $3] = $6
			hi[$2, $3] = $7
		}
	}
	next
}

$1 == "E" {
	if (!(($2) in ev_ops)) {
		ev_op[++nev] = $2
		ev_ops[$2] = $5
	}
	ev[$2, $3] = $4
	next
}

$1 == "M" && $2 == "stat" { stat[$3] = $4; next }
$1 == "M" && $2 == "kmalloc-64" { slab_size[boot] = $4; slab_obj[boot] = $3; next }
$1 == "M" && $2 == "page_ext_bytes" { page_ext[boot] = $3; next }
$1 == "M" && $2 == "pages_spanned" { spanned[boot] = $3; next }
$1 == "T" { rows[$2] = $3; bytes[$2] = $4; read_ns[$2] = $5; next }
$1 == "A" {
	if (!(($3) in acc_seen)) {
		acc_seen[$3] = 1
		acc[++nacc] = $3
	}
	acc_sizes[$3] = $4
	acc_objs[$2, $3] = $5
	acc_true[$2, $3] = $6
	acc_est[$2, $3] = $7
	next
}

END {
	printf "**%s**, %s, %d vCPU, ", kernel, date, 1
	printf "boots:"
	for (b = 1; b <= nboots; b++)
		printf "%s %s%s", (b > 1 ? "," : ""), bootset[b],
			(bootline[b] != "" ? " (" bootline[b] ")" : "")
	printf "; %d min wall-clock.\n\n", minutes

	rule()
	printf "%-14s  %-18s  %9s  %8s  %6s  %7s\n", "op", "configuration",
		"instr/op", "added", "ratio", "x floor"
	rule()
	for (i = 1; i <= nops; i++) {
		o = ops[i]
		base = (("none", o) in n) ? cost("none", o) : 0
		fl = (("floor", o) in n) && base ? cost("floor", o) - base : 0
		# a floor within the noise of the operation divides nothing;
		# the workloads' figures vary by more than the floor
		if (fl < 10 || fl < base / 50 || o ~ /^(msg-|files)/)
			fl = 0
		for (j = 1; j <= nconfigs; j++) {
			c = configs[j]
			if (!((c, o) in have))
				continue
			if (!((c, o) in n)) {
				printf "%-14s  %-18s  %9s  %8s  %6s  %7s\n", o,
					label[c], "n/a", "n/a", "n/a", "n/a"
				continue
			}
			v = cost(c, o)
			if (c == "none" || !base) {
				printf "%-14s  %-18s  %9.1f  %8s  %6s  %7s\n", o,
					label[c], v, "-", base ? "1.00" : "-", "-"
				continue
			}
			xf = fl ? sprintf("%.2f", (v - base) / fl) : "-"
			printf "%-14s  %-18s  %9.1f  %+8.1f  %6.2f  %7s\n", o,
				label[c], v, v - base, v / base, xf
		}
	}
	rule()
	print ""
	print "msg-pipe and msg-socket: per message (100 bytes, groups of 5"
	print "senders and 5 receivers); files: per file created, written (4 KiB)"
	print "and unlinked on tmpfs; the median of their rounds, whose spread"
	print "is below. x floor: only where the floor adds at least 10"
	print "instructions and 2%, and not for the workloads."
	rounds_table()
	events_table()

	if (!("object_capacity" in stat))
		exit
	print ""
	printf "%s  %s  %s\n", dashes(44), dashes(9), dashes(28)
	printf "%-44s  %9s  %s\n", "memory", "bytes", "from"
	printf "%s  %s  %s\n", dashes(44), dashes(9), dashes(28)
	if ("object_map_bytes" in stat) {
		printf "%-44s  %9.1f  %s\n", "allocinfo_ext, per tracked live object",
			stat["object_map_bytes"] / stat["object_capacity"],
			"object_map_bytes / capacity"
		if (stat["weight_map_bytes"] > 0)
			printf "%-44s  %9.1f  %s\n",
				"allocinfo_ext, weight map, per object",
				stat["weight_map_bytes"] / stat["object_capacity"],
				"weight_map_bytes / capacity"
		if (stat["slab_map_capacity"] > 0) {
			printf "%-44s  %9d  %s\n", "allocinfo_ext, slab map",
				stat["slab_map_bytes"],
				sprintf("4 B a frame, %d of %d records",
					stat["slab_map_capacity"],
					stat["slab_map_ceiling"])
			printf "%-44s  %9d  %s\n",
				"allocinfo_ext, slab map, blocks now",
				stat["slab_map_blocks"], "slab_map_blocks"
		}
		if (stat["page_map_bytes"] > 0)
			printf "%-44s  %9d  %s\n", "allocinfo_ext, page map",
				stat["page_map_bytes"], "page_map_bytes: 4 B a frame"
		if ("counter_slot_bytes" in stat && stat["sites_ready"]) {
			# entries and buckets for the whole table, own counters
			# for the sites that have them (made ahead of need), and
			# each CPU's counter slots, however many sites
			# and the site caches, a fixed size, like the slots
			per = stat["site_table_bytes"] - stat["site_counter_bytes"]
			per -= stat["site_cache_bytes"]
			per /= stat["site_capacity"]
			own = stat["site_counter_bytes"] - stat["counter_slot_bytes"]
			per += own / stat["sites_ready"]
			printf "%-44s  %9.1f  %s\n", "allocinfo_ext, per site", per,
				"entry + own counters"
			printf "%-44s  %9d  %s\n", "allocinfo_ext, counter slots",
				stat["counter_slot_bytes"],
				sprintf("%d per CPU, 64 B each", stat["counter_slots"])
			if (stat["site_cache_bytes"] > 0)
				printf "%-44s  %9d  %s\n",
					"allocinfo_ext, site caches",
					stat["site_cache_bytes"],
					"slab and page, whatever the sites"
			printf "%-44s  %9d  %s\n", "allocinfo_ext, site table now",
				stat["site_table_bytes"],
				sprintf("own counters for %d of %d",
					stat["sites_ready"], stat["site_capacity"])
		} else if ("site_counter_bytes" in stat && stat["sites_ready"]) {
			# before counter slots: per-CPU counters per site
			per = stat["site_table_bytes"] - stat["site_counter_bytes"]
			per /= stat["site_capacity"]
			per += stat["site_counter_bytes"] / stat["sites_ready"]
			printf "%-44s  %9.1f  %s\n", "allocinfo_ext, per site", per,
				"entry + counters per site"
			printf "%-44s  %9d  %s\n", "allocinfo_ext, site table now",
				stat["site_table_bytes"],
				sprintf("counters for %d of %d", stat["sites_ready"],
					stat["site_capacity"])
		} else
			printf "%-44s  %9.1f  %s\n", "allocinfo_ext, per site",
				stat["site_table_bytes"] / stat["site_capacity"],
				"site_table_bytes / capacity"
	} else {
		printf "%-44s  %9.1f  %s\n", "allocinfo_ext, all, per object slot",
			stat["memory_bytes"] / stat["object_capacity"],
			"memory_bytes / object_cap."
		printf "%-44s  %9d  %s\n", "allocinfo_ext, all (sites and objects)",
			stat["memory_bytes"], "memory_bytes"
	}
	if ("mem_total_bytes" in stat)
		printf "%-44s  %9d  %s\n", "allocinfo_ext, all, after the runs",
			stat["memory_bytes"], sprintf("memory_bytes, %.2f%% of RAM",
				100 * stat["memory_bytes"] / stat["mem_total_bytes"])
	if ("slabdebug" in slab_size && slab_size["full"])
		printf "%-44s  %9d  %s\n", "slab_debug=U, per kmalloc-64 object",
			slab_size["slabdebug"] - slab_size["full"],
			sprintf("slab_size %d -> %d", slab_size["full"],
				slab_size["slabdebug"])
	if ("pageowner" in page_ext && spanned["pageowner"])
		printf "%-44s  %9.1f  %s\n", "page_owner=on, per page",
			(page_ext["pageowner"] - page_ext["full"]) / spanned["pageowner"],
			sprintf("page_ext %d -> %d", page_ext["full"],
				page_ext["pageowner"])
	printf "%s  %s  %s\n", dashes(44), dashes(9), dashes(28)
	if (!("object_map_bytes" in stat))
		print "\nThe stats file has no object_map_bytes: the figures are its\n" \
			"memory_bytes (sites, objects, rules, per-CPU state), per\n" \
			"object slot and in all."
	printf "\nmax_objects and max_sites at their defaults: %d object slots and\n",
		stat["object_capacity"]
	printf "%d sites; the figures are per slot, used or not, but for the\n",
		stat["site_capacity"]
	if ("counter_slot_bytes" in stat)
		print "sites' own counters, made for the sites in use and a few\n" \
			"more (sites_ready), and the counter slots, a fixed number\n" \
			"per CPU."
	else
		print "sites' per-CPU counters, made for the sites in use and a few\n" \
			"more (sites_ready)."
	if ("weight_map_bytes" in stat)
		print "The weight map holds the weights of sampled objects; it is\n" \
			"made at sampling's first start, after these figures."

	if ("read" in read_ns) {
		print ""
		printf "%s  %s  %s  %s  %s\n", dashes(38), dashes(6), dashes(8),
			dashes(8), dashes(11)
		printf "%-38s  %6s  %8s  %8s  %11s\n", "reading /proc/allocinfo_ext",
			"rows", "bytes", "ms", "instr/row"
		printf "%s  %s  %s  %s  %s\n", dashes(38), dashes(6), dashes(8),
			dashes(8), dashes(11)
		split("load read0 read reread", reads)
		what["load"] = "just after load"
		what["read0"] = "after the runs"
		what["read"] = "then 10,000 more sites, 1 object each"
		what["reread"] = "the same, read again"
		for (i = 1; i <= 4; i++) {
			r = reads[i]
			if (r in read_ns)
				printf "%-38s  %6d  %8d  %8.1f  %11d\n", what[r],
					rows[r], bytes[r], read_ns[r] / 1e6,
					read_ns[r] / rows[r]
		}
		printf "%s  %s  %s  %s  %s\n", dashes(38), dashes(6), dashes(8),
			dashes(8), dashes(11)
		print ""
		print "One read to the end, in 64 KiB reads. After the runs, about 1,000"
		print "of the rows are the sites of sites-1000, in aie_bench. The first"
		print "read of a site in a module names it through kallsyms and keeps"
		print "the name; the read again shows what a reader pays from then on."
	}

	if (!nacc)
		exit
	print ""
	acc_hr = sprintf("%s  %s  %s  %s  %s  %s  %s  %s  %s  %s", dashes(16),
		dashes(9), dashes(7), dashes(10), dashes(10), dashes(7),
		dashes(10), dashes(7), dashes(10), dashes(7))
	print acc_hr
	printf "%-16s  %9s  %7s  %10s  %10s  %7s  %10s  %7s  %10s  %7s\n",
		"site", "sizes", "objects", "true", "exact", "error",
		"s=512K", "error", "s=1K", "error"
	print acc_hr
	for (i = 1; i <= nacc; i++) {
		f = acc[i]
		e = acc_est["exact", f]
		t = acc_true["exact", f]
		if (("sample", f) in acc_true) {
			ts = acc_true["sample", f]
			s = acc_est["sample", f]
			se = pct(s, ts)
		} else {
			s = "n/a"
			se = "n/a"
		}
		if (("sample1k", f) in acc_true) {
			k = acc_est["sample1k", f]
			ke = pct(k, acc_true["sample1k", f])
		} else {
			k = "n/a"
			ke = "n/a"
		}
		printf "%-16s  %9s  %7d  %10d  %10d  %7s  %10s  %7s  %10s  %7s\n",
			substr(f, 11), acc_sizes[f], acc_objs["exact", f], t, e,
			pct(e, t), s, se, k, ke
	}
	print acc_hr
	print ""
	print "Live bytes per site: true (ksize() of each object held), from"
	print "/proc/allocinfo_ext with full tracking (exact), with"
	print "\"sample 524288\" (s=512K) and with \"sample 1024\" (s=1K), the"
	print "same allocations made again each time. The expected error of an"
	print "estimate is about one over the square root of the samples a"
	print "site holds: bytes / interval (8 for 4 MiB at 512K, 4096 at 1K)."
}
