# SPDX-License-Identifier: GPL-2.0
# lib.sh - shared steps of `make check` and `make run`: install what is
# needed, pick a kernel, build, pack an initramfs, boot it under QEMU.
# Sourced by check.sh and run.sh; every function dies on error.

AIE_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
AIE_CACHE=${AIE_CACHE:-$AIE_TOP/.cache}
AIE_BUILD=${AIE_BUILD:-$AIE_TOP/build}
AIE_KSRC_TAR=/usr/src/linux-source-6.12.tar.xz

. "$AIE_TOP/tools/vm/kernels.sh"
. "$AIE_TOP/tools/vm/kernel-test.sh"

aie_die() { echo "error: $*" >&2; exit 1; }
aie_log() { echo ">>> $*" >&2; }

aie_sudo() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Install Debian packages that are missing, running apt-get update once.
aie_apt_install() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	aie_log "installing ${missing[*]}"
	if [ -z "${AIE_APT_UPDATED:-}" ]; then
		aie_sudo apt-get update -qq >&2 || aie_die "apt-get update failed"
		AIE_APT_UPDATED=1
	fi
	DEBIAN_FRONTEND=noninteractive aie_sudo apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >&2 ||
		aie_die "apt-get install ${missing[*]} failed"
}

# aie_deps [run]: the packages make check needs; with run, those of make
# run's boot alone: the build, QEMU, busybox and the tool's static libraries.
aie_deps() {
	aie_apt_install make gcc libc6-dev bc flex bison libelf-dev cpio gzip \
		rsync xz-utils qemu-system-x86 qemu-system-arm busybox-static binutils
	# tools/allocinfo-ext, static too, for the guest
	aie_apt_install libdw-dev zlib1g-dev liblzma-dev libbz2-dev libzstd-dev libncurses-dev
	[ "${1:-}" = run ] && return 0
	# the kselftest framework's sources; the tool's host tests
	aie_apt_install linux-source-6.12 python3 curl tmux chromium prometheus \
		prometheus-node-exporter
	# tools/fuzz: the control parser under libFuzzer
	aie_apt_install clang-14 libfuzzer-14-dev
}

# Fetch a Debian package's .deb into the cache and unpack it under $2;
# PKG:ARCH for another architecture's (busybox-static:arm64).
aie_deb_extract() {
	local pkg=$1 dest=$2 debs=$AIE_CACHE/debs deb glob
	glob=${pkg%%:*}_*.deb
	[ "$pkg" = "${pkg%%:*}" ] || glob=${pkg%%:*}_*_${pkg#*:}.deb
	mkdir -p "$debs" "$dest"
	deb=$(ls "$debs/"$glob 2>/dev/null | head -n1 || true)
	if [ -z "$deb" ]; then
		aie_apt_update
		(cd "$debs" && aie_apt apt-get download "$pkg" >&2) ||
			aie_die "apt-get download $pkg failed"
		deb=$(ls "$debs/"$glob | head -n1)
	fi
	[ -e "$dest/.extracted-$pkg" ] || { dpkg -x "$deb" "$dest" && touch "$dest/.extracted-$pkg"; } ||
		aie_die "cannot unpack $deb"
}

# aie_kernel SPEC: set AIE_KREL, AIE_ARCH, AIE_CROSS (the prefix of the
# cross tools, or none), AIE_VMLINUZ, AIE_ROOT_REL (the release
# whose root builds for it, kernels.sh), AIE_KDIR (its kbuild tree in that
# root) and AIE_KDIR_HOST (the same seen from the host).
#   A name of kernels.sh's table: Debian's kernel of that series and
#   flavour, the newest the archive has, its headers installed in the
#   root by the root's apt (an arm64 kernel's unpacked there, the root
#   given its cross compiler), its image unpacked into the cache; a path
#   to linux-image-*.deb: that kernel, with the linux-headers deb of the same
#   release beside it, unpacked into the root of the release whose
#   compiler built it.
aie_kernel() {
	local spec=${1:-6.12} dir hdr img root
	if aie_kernel_name "$spec"; then
		aie_root "$AIE_ROOT_REL"
		if [ "$AIE_ARCH" = arm64 ]; then
			aie_root_arm64 "$AIE_ROOT_REL"
			aie_root_headers_arm64 "$AIE_ROOT_REL" "$AIE_KREL"
		else
			aie_root_x86 "$AIE_ROOT_REL"
			aie_root_apt "$AIE_ROOT_REL" "linux-headers-$AIE_KREL"
		fi
		dir=$AIE_CACHE/kernels/$AIE_KREL
		# vmlinuz is in linux-image-<rel>-unsigned up to 6.12, in
		# linux-binary-<rel> from 7.x on (linux-image-<rel> is then the
		# package that depends on it and on the modules)
		for img in "linux-image-$AIE_KREL-unsigned" "linux-binary-$AIE_KREL" ""; do
			[ -n "$img" ] || aie_die "no image package for $AIE_KREL"
			[ "$AIE_ARCH" = arm64 ] && img=$img:arm64
			aie_apt apt-cache show "$img" >/dev/null 2>&1 && break
		done
		aie_deb_extract "$img" "$dir"
	else
		case "$spec" in
		*.deb) [ -f "$spec" ] || aie_die "no such kernel package: $spec" ;;
		*) aie_die "KERNEL=$spec: expected 5.10, 6.1, 6.12, 6.12-rt, 6.12-cloud, 7, arm64-6.12, arm64-7 or a path to linux-image-*.deb" ;;
		esac
		case "$(dpkg-deb -f "$spec" Architecture)" in
		amd64) AIE_ARCH=x86_64 ;;
		arm64) AIE_ARCH=arm64 ;;
		*) aie_die "$spec: neither amd64 nor arm64" ;;
		esac
		AIE_KREL=$(dpkg-deb -f "$spec" Package | sed 's/^linux-image-//')
		dir=$AIE_CACHE/kernels/$AIE_KREL
		hdr=$(ls "$(dirname "$spec")/linux-headers-${AIE_KREL}_"*.deb 2>/dev/null | head -n1 || true)
		[ -n "$hdr" ] || aie_die "no linux-headers-${AIE_KREL}_*.deb beside $spec"
		AIE_ROOT_REL=$(aie_deb_root "$hdr")
		aie_root "$AIE_ROOT_REL"
		if [ "$AIE_ARCH" = x86_64 ]; then
			aie_root_x86 "$AIE_ROOT_REL"
		else
			aie_root_arm64 "$AIE_ROOT_REL"
		fi
		root=$AIE_ROOTS/$AIE_ROOT_REL
		# its kbuild tree alone: the deb's /lib would land on the
		# root's merged /usr
		if [ ! -d "$root/usr/src/linux-headers-$AIE_KREL" ]; then
			rm -rf "$dir.hdr" && mkdir -p "$dir.hdr" &&
				dpkg -x "$hdr" "$dir.hdr" &&
				aie_sudo mv "$dir.hdr/usr/src/linux-headers-$AIE_KREL" \
					"$root/usr/src/" && rm -rf "$dir.hdr" ||
				aie_die "cannot unpack $hdr into the $AIE_ROOT_REL root"
		fi
		if [ ! -e "$dir/.extracted" ]; then
			mkdir -p "$dir"
			dpkg -x "$spec" "$dir" && touch "$dir/.extracted" ||
				aie_die "cannot unpack $spec"
		fi
	fi
	# /boot until 6.12; Debian's 7.x packages it in /usr/lib/modules
	for AIE_VMLINUZ in "$dir/boot/vmlinuz-$AIE_KREL" \
		"$dir/usr/lib/modules/$AIE_KREL/vmlinuz"; do
		[ -f "$AIE_VMLINUZ" ] && break
	done
	AIE_KDIR=/usr/src/linux-headers-$AIE_KREL
	AIE_KDIR_HOST=$AIE_ROOTS/$AIE_ROOT_REL$AIE_KDIR
	# the prefix of the root's tools that build for the guest
	AIE_CROSS=
	[ "$AIE_ARCH" = x86_64 ] || AIE_CROSS=aarch64-linux-gnu-
	[ -f "$AIE_VMLINUZ" ] || aie_die "no $AIE_VMLINUZ"
	[ -f "$AIE_KDIR_HOST/Makefile" ] || aie_die "no kbuild tree $AIE_KDIR_HOST"
}

# aie_make ARGS...: make in the root that builds for $AIE_KREL.
aie_make() {
	aie_root_run "$AIE_ROOT_REL" make "$@"
}

# The kselftest framework, taken from the kernel source tarball at build time.
aie_ksft_sources() {
	AIE_KSFT=$AIE_CACHE/linux-source-6.12
	[ -e "$AIE_KSFT/.extracted" ] && return 0
	[ -f "$AIE_KSRC_TAR" ] || aie_die "$AIE_KSRC_TAR missing: apt-get install linux-source-6.12"
	aie_log "extracting kselftest files from $AIE_KSRC_TAR"
	mkdir -p "$AIE_KSFT"
	tar -C "$AIE_KSFT" --strip-components=1 -xf "$AIE_KSRC_TAR" \
		linux-source-6.12/tools/testing/selftests/kselftest.h \
		linux-source-6.12/tools/testing/selftests/kselftest_harness.h \
		linux-source-6.12/tools/testing/selftests/kselftest \
		linux-source-6.12/tools/testing/selftests/lib.mk \
		linux-source-6.12/tools/testing/selftests/run_kselftest.sh \
		linux-source-6.12/scripts/checkpatch.pl \
		linux-source-6.12/scripts/spelling.txt \
		linux-source-6.12/scripts/const_structs.checkpatch ||
		aie_die "cannot extract kselftest files"
	touch "$AIE_KSFT/.extracted"
}

# Build the module, the helper module and the kselftests for $AIE_KDIR and
# install them into a kselftest tree at $AIE_OUT/stage/kselftest. The
# smoke mode (AIE_MODE=smoke) builds the programs alone, no module.
aie_build() {
	local ksft=$AIE_KSFT/tools/testing/selftests st nomod=()
	AIE_OUT=$AIE_BUILD/$AIE_KREL
	st=$AIE_OUT/stage
	rm -rf "$st" "$AIE_OUT/ksft" && mkdir -p "$st/kselftest" "$AIE_OUT/ksft"
	aie_log "building for $AIE_KREL ($AIE_ARCH)"
	if [ "${AIE_MODE:-}" = smoke ]; then
		nomod=(TEST_GEN_MODS_DIR= TEST_FILES=)
	else
		aie_build_module
	fi
	# lib.mk's CC is $(CROSS_COMPILE)gcc; the helper module's kbuild
	# takes the kernel's own from its .kernelvariables
	aie_make -s -C "$AIE_TOP/selftests/allocinfo_ext" KSFT_DIR="$ksft" \
		KDIR="$AIE_KDIR" OUTPUT="$AIE_OUT/ksft" \
		${AIE_CROSS:+CROSS_COMPILE=$AIE_CROSS} "${nomod[@]}" \
		INSTALL_PATH="$st/kselftest/allocinfo_ext" install >&2 ||
		aie_die "selftest build failed"
	cp "$ksft/run_kselftest.sh" "$st/kselftest/"
	cp -r "$ksft/kselftest" "$st/kselftest/"
	make -s -C "$AIE_TOP/selftests/allocinfo_ext" KSFT_DIR="$ksft" \
		${AIE_CROSS:+CROSS_COMPILE=$AIE_CROSS} \
		COLLECTION=allocinfo_ext OUTPUT="$AIE_OUT/ksft" emit_tests \
		> "$st/kselftest/kselftest-list.txt" || aie_die "emit_tests failed"
	make -s -C "$AIE_TOP" tools >&2 &&
		make -s -C "$AIE_TOP/tools/allocinfo-ext" allocinfo-ext.static \
			tests/unit >&2 ||
		aie_die "tools/allocinfo-ext build failed"
	aie_tool_static "$st/kselftest/allocinfo_ext/allocinfo-ext"
	mkdir -p "$st/kselftest/allocinfo_ext/alloc_tag"
	aie_alloc_tag_build "$st/kselftest/allocinfo_ext/alloc_tag/allocinfo_ioctl_test"
	aie_stage_guest "${nomod[@]}"
}

aie_build_module() {
	aie_make -s -C "$AIE_TOP" clean KDIR="$AIE_KDIR" >/dev/null 2>&1 || true
	aie_make -s -C "$AIE_TOP" KDIR="$AIE_KDIR" AIE_WERROR=y >&2 ||
		aie_die "module build failed"
}

# aie_stage_guest [nomod]: the module (unless an argument is given), the
# guest's scripts and the allocator functions into $AIE_OUT/stage/aie.
aie_stage_guest() {
	local st=$AIE_OUT/stage
	mkdir -p "$st/aie"
	[ $# -gt 0 ] || cp "$AIE_TOP/module/allocinfo_ext.ko" "$st/aie/"
	cp "$AIE_TOP/tools/vm/guest/"* "$st/aie/"
	aie_allocator_functions > "$st/aie/allocator-functions"
}

# make run's build: what workload.sh uses and nothing else, the module
# and the static tool (where the kselftest tree would have it), staged;
# no kselftest, so no linux-source-6.12 or 7.x.
aie_build_run() {
	local st
	AIE_OUT=$AIE_BUILD/$AIE_KREL
	st=$AIE_OUT/stage
	rm -rf "$st" && mkdir -p "$st/kselftest/allocinfo_ext"
	aie_log "building the module and the tool for $AIE_KREL ($AIE_ARCH)"
	aie_build_module
	make -s -C "$AIE_TOP/tools/allocinfo-ext" allocinfo-ext.static >&2 ||
		aie_die "tools/allocinfo-ext build failed"
	aie_tool_static "$st/kselftest/allocinfo_ext/allocinfo-ext"
	aie_stage_guest
}

# aie_tool_static DEST: the static allocinfo-ext for the guest, as DEST:
# the host's; for arm64, cross-built in the bookworm root whatever the
# kernel (trixie's libdw.a and libelf.a, elfutils 0.192, call libeu's
# eu_tsearch and do not carry it), in a copy of its sources under
# $AIE_OUT/tool (the tree's objects are the host's).
aie_tool_static() {
	local src=$AIE_OUT/tool rel=bookworm
	if [ -z "$AIE_CROSS" ]; then
		cp "$AIE_TOP/tools/allocinfo-ext/allocinfo-ext.static" "$1"
		return
	fi
	if [ "$AIE_ROOT_REL" != "$rel" ]; then
		aie_root "$rel"
		aie_root_arm64 "$rel"
	fi
	mkdir -p "$src/module" "$src/tools/allocinfo-ext"
	rsync -a --delete "$AIE_TOP/include" "$src/" &&
		rsync -a --delete "$AIE_TOP/module/lib" "$src/module/" &&
		rsync -a --delete --exclude='*.o' --exclude=/allocinfo-ext \
			--exclude='*.static' --exclude=/tests/unit \
			"$AIE_TOP/tools/allocinfo-ext/" "$src/tools/allocinfo-ext/" &&
		aie_root_run "$rel" make -s -C "$src/tools/allocinfo-ext" \
			CC="${AIE_CROSS}gcc" allocinfo-ext.static >&2 &&
		cp "$src/tools/allocinfo-ext/allocinfo-ext.static" "$1" ||
		aie_die "tools/allocinfo-ext build for $AIE_ARCH failed"
}

# The function names module/core/callers.c lists as allocator-internal or
# helpers, one a line: its table run through the preprocessor, with the
# name lists of module/compat.h expanded.
aie_allocator_functions() {
	local names
	names=$( {
		# compat.h's names of functions, which come before its includes
		sed -e '/^#include/,$d' -e '/_AIE_COMPAT_H/d' "$AIE_TOP/module/compat.h"
		printf '#define %s(...) __VA_ARGS__\n' INTERNAL HELPER
		sed -n '/^static const struct aie_fn aie_fns\[\] = {$/,/^};$/{//!p}' \
			"$AIE_TOP/module/core/callers.c"
	} | gcc -E -P - | grep -o '"[^"]*"' | tr -d '"') ||
		aie_die "cannot list the functions of module/core/callers.c"
	[ "$(wc -l <<<"$names")" -ge 20 ] ||
		aie_die "module/core/callers.c: its table of functions was not found"
	echo "$names"
}

# aie_host_tests FILE: the host-side tests (no VM): the module's layering
# (on the objects just built), checkpatch --strict and the comments'
# kernel-doc (tools/style), those of
# tools/allocinfo-ext, the control-parser fuzzer (tools/fuzz), then make
# install's, DKMS's, the Debian packages' and the RPM spec's (tools/pkg).
# Their
# TAP lines go to FILE, their other output to $AIE_OUT/host-tests.log; a
# script that fails without a "not ok" line of its own gets one.
aie_host_tests() {
	local out=$1 t rc
	: >"$out"
	: >"$AIE_OUT/host-tests.log"
	for t in tools/style/layers.sh tools/style/checkpatch.sh \
		tools/style/kdoc.sh tools/allocinfo-ext/tests/run.sh tools/fuzz/run.sh \
		tools/pkg/install-test.sh tools/pkg/dkms-test.sh tools/pkg/pkg-test.sh \
		tools/pkg/rpm-test.sh; do
		aie_log "host tests: $t"
		rc=0
		AIE_FUZZ_OUT=$AIE_OUT/fuzz "$AIE_TOP/$t" >"$out.part" \
			2>>"$AIE_OUT/host-tests.log" || rc=$?
		cat "$out.part" >>"$out"
		if [ "$rc" != 0 ] && ! grep -q '^not ok - ' "$out.part"; then
			echo "not ok - host: $t exited $rc" >>"$out"
		fi
	done
	rm -f "$out.part"
}

# Pack $AIE_OUT/stage with busybox and the guest init into an initramfs:
# the host's busybox, busybox-static:arm64 (through the project's apt)
# for arm64.
aie_initramfs() {
	local st=$AIE_OUT/stage bb=/bin/busybox
	mkdir -p "$st/bin" "$st/dev" "$st/proc" "$st/sys" "$st/tmp" "$st/root"
	if [ "$AIE_ARCH" = arm64 ]; then
		aie_deb_extract busybox-static:arm64 "$AIE_CACHE/busybox-arm64"
		# /bin until bookworm, /usr/bin from trixie on
		for bb in "$AIE_CACHE/busybox-arm64/"{usr/,}bin/busybox; do
			[ -f "$bb" ] && break
		done
	fi
	cp "$bb" "$st/bin/busybox"
	ln -sf busybox "$st/bin/sh"
	cp "$AIE_TOP/tools/vm/guest/init" "$st/init"
	chmod +x "$st/init"
	(cd "$st" && find . | cpio -o -H newc --quiet | gzip -1) \
		> "$AIE_OUT/initramfs.cpio.gz" || aie_die "cannot pack the initramfs"
}

aie_kasan() {
	grep -qx 'CONFIG_KASAN=y' "$AIE_KDIR_HOST/include/config/auto.conf" 2>/dev/null
}

# The guest's memory: AIE_VM_MEM, else 2G for a KASAN kernel (its shadow
# takes an eighth of memory, and the debug kernel wants 2 GiB), else 1G.
aie_vm_mem() {
	if [ -n "${AIE_VM_MEM:-}" ]; then
		echo "$AIE_VM_MEM"
	elif aie_kasan; then
		echo 2G
	else
		echo 1G
	fi
}

# A boot's time limit in seconds for make check: a KASAN kernel gets four
# times the others' 900. The debug kernel ran the suite in 1131 s alone
# on 2026-11-25 (about 11 minutes in earlier runs), and past 1800 s while
# it shared the two-core host with another boot under check-all.sh.
aie_vm_limit() {
	if aie_kasan; then echo 3600; else echo 900; fi
}

# aie_vm_numa MEM N: into qemu_numa, the options that split the guest's
# MEM (e.g. 1G) evenly into N NUMA nodes (AIE_VM_NUMA=N), vCPU c on node
# c mod N; and into smp, one vCPU a socket, so that no cache is shared
# across nodes (the kernel warns of a sibling on another node otherwise).
# numa_test's guest.
aie_vm_numa() {
	local mib n=$2 i c cpus=${AIE_VM_CPUS:-2} opt
	case "$1" in
	*G) mib=$(( ${1%G} * 1024 )) ;;
	*M) mib=${1%M} ;;
	*) aie_die "AIE_VM_NUMA: guest memory $1 is neither <n>G nor <n>M" ;;
	esac
	[[ "$n" =~ ^[1-8]$ ]] || aie_die "AIE_VM_NUMA must be 1..8, not $n"
	[ $((mib % n)) -eq 0 ] || aie_die "AIE_VM_NUMA: $mib MiB do not split into $n nodes"
	smp="$cpus,sockets=$cpus,cores=1,threads=1"
	for ((i = 0; i < n; i++)); do
		opt="node,nodeid=$i,memdev=aienode$i"
		for ((c = i; c < cpus; c += n)); do
			opt="$opt,cpus=$c"
		done
		qemu_numa+=(-object "memory-backend-ram,id=aienode$i,size=$((mib / n))M"
			-numa "$opt")
	done
}

# aie_boot MODE [TIMEOUT]: boot the kernel with the initramfs; the guest's
# kernel log goes to $AIE_OUT/console.log, the test output to
# $AIE_OUT/output.log. Returns QEMU's (or timeout's) exit status.
#
# TCG runs the vCPUs on one host thread by default (AIE_ACCEL overrides).
# With multi-threaded TCG we saw the guest take an "Oops: int3" at a
# tracepoint's jump-label site in kmem_cache_free() while tracepoints were
# being unregistered (1 run in 5 of the suite): a vCPU ran a stale
# translation holding the transient int3 after text_poke_bp() had finished
# and serialised every CPU. The vCPUs still interleave on one thread.
#
# arm64: the virt board, whose one UART (ttyAMA0) takes the kernel log;
# the test output goes through a virtio console (hvc0). pauth-impdef:
# QEMU 7.2's default, the architected QARMA5, takes up to half the time
# under TCG. -cpu max has FEAT_LPA2: Debian's arm64 kernels (VA_BITS=52)
# then use 52-bit addresses; lpa2=off makes them fall back to 48, which
# is what arm64-6.12 boots with (AIE_KVA, kernels.sh; AIE_VA_BITS
# overrides it), so that both layouts are tested.
aie_boot() {
	local mode=$1 limit=${2:-900} append mem qemu va=
	local qemu_numa=() smp=${AIE_VM_CPUS:-2}
	mem=$(aie_vm_mem)
	[ -z "${AIE_VM_NUMA:-}" ] || aie_vm_numa "$mem" "$AIE_VM_NUMA"
	rm -f "$AIE_OUT/console.log" "$AIE_OUT/output.log"
	if [ "$AIE_ARCH" = arm64 ]; then
		va=${AIE_VA_BITS:-${AIE_KVA:-52}}
		append="console=ttyAMA0"
		qemu=(qemu-system-aarch64 -M virt
			-cpu "max,pauth-impdef=on$([ "$va" = 48 ] && echo ,lpa2=off)"
			-serial "file:$AIE_OUT/console.log"
			-device virtio-serial-pci
			-chardev "file,id=aieout,path=$AIE_OUT/output.log"
			-device virtconsole,chardev=aieout)
	else
		append="console=ttyS0 no5lvl"
		qemu=(qemu-system-x86_64 -cpu max
			-serial "file:$AIE_OUT/console.log"
			-serial "file:$AIE_OUT/output.log")
	fi
	# log_buf_len: oom_test's 50 OOM kills must not push the boot's
	# lines, which ledger_test reads, out of the kernel log
	append="$append panic=-1 kfence.sample_interval=0 log_buf_len=8M aie.mode=$mode ${AIE_APPEND:-}"
	aie_log "booting $AIE_KREL (mode $mode, $mem, ${va:+$va-bit VA, }limit ${limit}s)"
	timeout --foreground "$limit" "${qemu[@]}" -accel "${AIE_ACCEL:-tcg,thread=single}" \
		-smp "$smp" -m "$mem" \
		-nodefaults -no-reboot -display none -monitor none \
		-kernel "$AIE_VMLINUZ" -initrd "${AIE_INITRD:-$AIE_OUT/initramfs.cpio.gz}" \
		"${qemu_numa[@]}" -append "$append" ${AIE_QEMU_EXTRA:-} </dev/null
}

# The acceptance subset, the test programs every kernel of the matrix runs
# (check-all.sh): attribution exact on every hook and path (slab, large
# kmalloc, pages behind their wrappers, vmalloc, percpu, helpers),
# failures, accounted bytes, rules, capture, lifetimes, sampling,
# allocations from NMI (7.x), load and unload, the proc files, the walks
# of every site giving the CPU up (resched_test: a few seconds, and the
# preemption models differ between kernels). Left to
# the whole suite: the bounds of the
# site table and counters (sites_test, counters_test), the storms
# (stress_test), the OOM reports (oom_test, which fills the guest's
# memory), the DWARF annotation (annotate_test), the comparison
# with /proc/allocinfo (compare_test) and the parsers (ctl_fuzz_test,
# line_test), none of which differs between kernels but in time.
AIE_ACCEPT_TESTS=load_test,proc_test,slab_test,slabmap_test,scale_test,mm_test,callers_test,fault_test,accounted_test,cgroup_test,ctl_test,hooks_test,capture_test,lifetime_test,sample_test,nmi_test,resched_test

# Kernel log lines that fail a run whatever the tests said.
AIE_BAD_LOG='BUG:|WARNING:|Oops|KASAN|Kernel panic|UBSAN|general protection fault|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|kmemleak: [0-9]+ new suspected|blocked for more than|Call Trace:'

# aie_bad_log FILE: the lines of kernel log FILE that fail a run (at most
# 20). oom_test provokes OOM kills, whose report has a stack dump: its
# "Call Trace:" lines pass between the test's "aie-expect-oom: begin" and
# "aie-expect-oom: end" lines, and nothing else does.
aie_bad_log() {
	awk '/aie-expect-oom: begin/ { oom = 1 }
		/aie-expect-oom: end/ { oom = 0 }
		!(oom && /Call Trace:/)' "$1" 2>/dev/null |
		grep -aE "$AIE_BAD_LOG" | head -n 20 || true
}

# Everything before the boot: packages, kernel, kselftest files, build, pack.
aie_prepare() {
	aie_deps
	aie_kernel "${KERNEL:-6.12}"
	aie_ksft_sources
	aie_build
	aie_initramfs
}

# The same for make run: what its boot uses alone.
aie_prepare_run() {
	aie_deps run
	aie_kernel "${KERNEL:-6.12}"
	aie_build_run
	aie_initramfs
}
