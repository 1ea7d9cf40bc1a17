# SPDX-License-Identifier: GPL-2.0
# vmrun-tests.sh - `make run` fetches and builds only what its boot uses
# (tools/vm/run.sh): tools/vm/lib.sh's steps run with the ones that fetch
# or build stubbed to log what they would do, the rest as they are (the
# staging, the initramfs). Sourced by run.sh.

# vmrun_prepare STEP LOG: lib.sh's STEP (aie_prepare_run, aie_prepare) in
# a subshell, under $TMP/vmrun, every fetch and build logged in LOG.
vmrun_prepare() {
	local step=$1 log=$2
	(
		set -eu
		AIE_CACHE=$TMP/vmrun/cache AIE_BUILD=$TMP/vmrun/build
		# shellcheck source=../../vm/lib.sh
		. "$HERE/../../vm/lib.sh"
		aie_apt_install() { echo "apt $*" >>"$log"; }
		aie_kernel() {
			echo "kernel $1" >>"$log"
			AIE_KREL=test AIE_KDIR=/kdir AIE_ARCH=x86_64 AIE_CROSS=
			AIE_ROOT_REL=bookworm
		}
		aie_make() { echo "build module: $*" >>"$log"; }
		make() { echo "make $*" >>"$log"; }
		aie_ksft_sources() { echo "fetch linux-source-6.12" >>"$log"; AIE_KSFT=/ksft; }
		aie_alloc_tag_sources() { echo "fetch linux-source-7" >>"$log"; }
		aie_alloc_tag_build() { aie_alloc_tag_sources; echo "build alloc_tag" >>"$log"; }
		aie_tool_static() { echo "static tool" >>"$log"; mkdir -p "${1%/*}" && : >"$1"; }
		cp() {
			case "$1" in
			*/module/allocinfo_ext.ko) : >"$2/allocinfo_ext.ko" ;;
			-r | /ksft/*) ;;	# make check's kselftest files
			*) command cp "$@" ;;
			esac
		}
		"$step"
	) >/dev/null 2>&1
}

make_run_tests() {
	local log=$TMP/vmrun.log name want

	name="make run: fetches and builds the module and the tool alone, stages what workload.sh runs"
	rm -rf "$TMP/vmrun" && : >"$log"
	want="apt make gcc libc6-dev bc flex bison libelf-dev cpio gzip rsync xz-utils qemu-system-x86 qemu-system-arm busybox-static binutils
apt libdw-dev zlib1g-dev liblzma-dev libbz2-dev libzstd-dev libncurses-dev
kernel 6.12
build module: -s -C $(cd "$HERE/../../.." && pwd) clean KDIR=/kdir
build module: -s -C $(cd "$HERE/../../.." && pwd) KDIR=/kdir AIE_WERROR=y
make -s -C $(cd "$HERE/../../.." && pwd)/tools/allocinfo-ext allocinfo-ext.static
static tool"
	if vmrun_prepare aie_prepare_run "$log" && [ "$(cat "$log")" = "$want" ] &&
		[ "$(gzip -dc "$TMP/vmrun/build/test/initramfs.cpio.gz" | cpio -it --quiet 2>/dev/null |
			grep -xE 'init|aie/(workload.sh|allocinfo_ext.ko|allocator-functions)|kselftest/allocinfo_ext/allocinfo-ext' |
			sort | tr '\n' ' ')" = \
			"aie/allocator-functions aie/allocinfo_ext.ko aie/workload.sh init kselftest/allocinfo_ext/allocinfo-ext " ]; then
		ok "$name"
	else
		not_ok "$name" "$(diff <(echo "$want") "$log")" \
			"$(gzip -dc "$TMP/vmrun/build/test/initramfs.cpio.gz" 2>&1 | cpio -it --quiet 2>&1 | head -n 20)"
	fi
	# make check's preparation, under the same stubs, fetches both sources
	name="make run: the stubs see make check's fetches of linux-source-6.12 and 7"
	rm -rf "$TMP/vmrun" && : >"$log"
	vmrun_prepare aie_prepare "$log"
	if grep -qx "fetch linux-source-6.12" "$log" && grep -qx "fetch linux-source-7" "$log" &&
		grep -q "^apt linux-source-6.12 " "$log"; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$log")"
	fi
}
