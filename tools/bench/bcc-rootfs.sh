# SPDX-License-Identifier: GPL-2.0
# bcc-rootfs.sh - a Debian root file system with BCC (bpfcc-tools) for the
# guest, and the small initramfs that boots into it over 9p. Sourced by
# bcc.sh after tools/vm/lib.sh; every function dies on error.
#
# The root file system is made once per kernel release and kept under
# $AIE_CACHE/bcc: debootstrap (minbase) of the release the host runs, with
# python3, bpfcc-tools and bpftool, and Debian's headers of the guest's
# kernel unpacked into it, since BCC compiles its programs against
# /lib/modules/$(uname -r)/build when it starts.

AIE_BCC_SUITE=${AIE_BCC_SUITE:-bookworm}
AIE_BCC_PKGS=python3,bpfcc-tools,python3-bpfcc,bpftool,kmod,procps
# made by a version of this script before this number changed: remake
AIE_BCC_ROOTFS_VERSION=2

# The host's Debian mirror for the suite, as apt is configured: the
# URI of its Packages index.
aie_bcc_mirror() {
	local uri
	uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' \
		'Identifier: Packages' 2>/dev/null |
		awk -v s="$AIE_BCC_SUITE" '$2 == s { print $1; exit }')
	[ -n "$uri" ] || aie_die "no apt source for $AIE_BCC_SUITE (run apt-get update)"
	echo "$uri"
}

# aie_bcc_rootfs: set AIE_BCC_ROOT to a root file system for $AIE_KREL,
# making it if the cache has none made with the same packages.
aie_bcc_rootfs() {
	local root=$AIE_CACHE/bcc/rootfs-$AIE_BCC_SUITE-$AIE_KREL tmp hdr p
	AIE_BCC_ROOT=$root
	[ "$(cat "$root/.done" 2>/dev/null)" = "$AIE_BCC_ROOTFS_VERSION $AIE_BCC_PKGS" ] && return 0
	aie_apt_install debootstrap
	tmp=$root.tmp
	rm -rf "$tmp" "$root"
	mkdir -p "$AIE_CACHE/bcc"
	aie_log "debootstrap $AIE_BCC_SUITE with $AIE_BCC_PKGS into $tmp"
	debootstrap --variant=minbase --include="$AIE_BCC_PKGS" \
		"$AIE_BCC_SUITE" "$tmp" "$(aie_bcc_mirror)" >&2 ||
		aie_die "debootstrap failed: see $tmp/debootstrap/debootstrap.log"
	# The headers come from the same archive as the kernel (for Debian's
	# 6.12 on bookworm, the security suite): unpack the host's copies of
	# the packages rather than configure apt inside. Unpacked aside, as
	# the root file system has /lib as a link to usr/lib.
	hdr=$AIE_CACHE/bcc/headers-$AIE_KREL
	for p in "linux-headers-$AIE_KREL" \
		"linux-headers-${AIE_KREL%-amd64}-common"; do
		aie_deb_extract "$p" "$hdr"
		rm -f "$hdr/.extracted"
	done
	cp -a "$hdr/usr/src/." "$tmp/usr/src/" ||
		aie_die "cannot copy the headers into $tmp"
	# the links build (the -amd64 part) and source (the -common part):
	# BCC takes its include paths from both
	mkdir -p "$tmp/usr/lib/modules/$AIE_KREL"
	cp -a "$hdr/lib/modules/$AIE_KREL/." "$tmp/usr/lib/modules/$AIE_KREL/" ||
		aie_die "cannot copy the links of the headers into $tmp"
	[ -L "$tmp/usr/lib/modules/$AIE_KREL/source" ] ||
		aie_die "linux-headers-$AIE_KREL has no source link"
	[ -f "$tmp/usr/src/linux-headers-$AIE_KREL/include/generated/autoconf.h" ] ||
		aie_die "the headers of $AIE_KREL are incomplete in $tmp"
	[ -x "$tmp/usr/sbin/memleak-bpfcc" ] || aie_die "no memleak-bpfcc in $tmp"
	# mount points for the guest: the root is shared read-only
	mkdir -p "$tmp/aie" "$tmp/sys/kernel/debug" "$tmp/sys/fs/bpf"
	rm -f "$tmp"/var/cache/apt/archives/*.deb
	mv "$tmp" "$root" && echo "$AIE_BCC_ROOTFS_VERSION $AIE_BCC_PKGS" > "$root/.done" ||
		aie_die "cannot move $tmp to $root"
}

# aie_bcc_initramfs STAGE: pack busybox, the 9p modules of the kernel and
# the bench files already in STAGE/aie into $AIE_OUT/initramfs.cpio.gz.
aie_bcc_initramfs() {
	local st=$1 deb img=$AIE_CACHE/bcc/image-$AIE_KREL m f
	deb=$(ls "$AIE_CACHE/debs/linux-image-$AIE_KREL-unsigned_"*.deb 2>/dev/null | head -n1 || true)
	[ -n "$deb" ] || aie_die "no linux-image-$AIE_KREL-unsigned deb in $AIE_CACHE/debs"
	if [ ! -e "$img/.extracted" ]; then
		mkdir -p "$img"
		dpkg -x "$deb" "$img" && touch "$img/.extracted" ||
			aie_die "cannot unpack $deb"
	fi
	mkdir -p "$st/bin" "$st/dev" "$st/proc" "$st/sys" "$st/mnt" "$st/mod"
	for m in netfs 9pnet 9pnet_virtio 9p; do
		f=$(find "$img/lib/modules/$AIE_KREL" -name "$m.ko*" | head -n1)
		[ -n "$f" ] || aie_die "no $m module in $img"
		case "$f" in
		*.xz) xz -dc "$f" > "$st/mod/$m.ko" ;;
		*.zst) zstd -qdc "$f" > "$st/mod/$m.ko" ;;
		*) cp "$f" "$st/mod/$m.ko" ;;
		esac || aie_die "cannot unpack $f"
	done
	cp /bin/busybox "$st/bin/busybox"
	ln -sf busybox "$st/bin/sh"
	cp "$AIE_TOP/tools/bench/guest/bcc-init" "$st/init"
	chmod +x "$st/init"
	(cd "$st" && find . | cpio -o -H newc --quiet | gzip -1) \
		> "$AIE_OUT/initramfs.cpio.gz" || aie_die "cannot pack the initramfs"
}
