# SPDX-License-Identifier: GPL-2.0
# kernel-test.sh - Linux's own test of the allocinfo ioctls,
# tools/testing/selftests/alloc_tag/allocinfo_ioctl_test.c, run against
# /proc/allocinfo_ext (kernel_ioctl_test in the guest). Sourced by lib.sh.
#
# The test comes from Debian's newest linux-source-7.x, extracted at build
# time with the kselftest.h and the UAPI header it includes; the one line
# that names /proc/allocinfo is changed, and the build stops if anything
# else differs. Its parser reads only rows of built-in code with a
# file:line, so the guest needs the kernel's DWARF: vmlinux from Debian's
# linux-image-<release>-dbg (about 1 GB), extracted once into $AIE_DBG,
# outside the clone, at /usr/lib/debug/boot/vmlinux-<release> below
# $AIE_DBG/<release>, where the package puts it and `allocinfo-ext
# annotate` looks. It is appended to the initramfs of a boot of its own
# (aie_dbg_initrd); a kernel that has no -dbg package (the test kernels of
# ../shared/kernels) has no such boot.

AIE_DBG=${AIE_DBG:-/var/cache/allocinfo-ext/dbg}

# aie_alloc_tag_sources: the test's sources into $AIE_KSFT7 (once).
aie_alloc_tag_sources() {
	local pkg src tar
	AIE_KSFT7=$AIE_CACHE/linux-source-7
	[ -e "$AIE_KSFT7/.extracted" ] && return 0
	aie_apt_update
	pkg=$(aie_newest 'linux-source-7\.[0-9]+')
	[ -n "$pkg" ] || aie_die "no linux-source-7.x in the archive"
	aie_log "extracting Linux's alloc_tag kselftest from $pkg"
	rm -rf "$AIE_KSFT7" && mkdir -p "$AIE_KSFT7" "$AIE_CACHE/debs"
	src=$(ls "$AIE_CACHE/debs/${pkg}_"*.deb 2>/dev/null | head -n1 || true)
	if [ -z "$src" ]; then
		(cd "$AIE_CACHE/debs" && aie_apt apt-get download "$pkg" >&2) ||
			aie_die "apt-get download $pkg failed"
		src=$(ls "$AIE_CACHE/debs/${pkg}_"*.deb | head -n1)
	fi
	tar=./usr/src/$pkg.tar.xz
	dpkg-deb --fsys-tarfile "$src" | tar -xO "$tar" |
		tar -C "$AIE_KSFT7" -xJ --strip-components=1 \
			"$pkg/tools/testing/selftests/alloc_tag/allocinfo_ioctl_test.c" \
			"$pkg/tools/testing/selftests/kselftest.h" \
			"$pkg/include/uapi/linux/alloc_tag.h" ||
		aie_die "cannot extract the alloc_tag kselftest from $src"
	touch "$AIE_KSFT7/.extracted"
}

# aie_alloc_tag_build DEST: the test, built for the guest as DEST.
aie_alloc_tag_build() {
	local dest=$1 dir=$AIE_OUT/alloc_tag t=tools/testing/selftests
	aie_alloc_tag_sources
	rm -rf "$dir" && mkdir -p "$dir/$t/alloc_tag" "$dir/khdr/linux"
	cp "$AIE_KSFT7/$t/kselftest.h" "$dir/$t/"
	cp "$AIE_KSFT7/include/uapi/linux/alloc_tag.h" "$dir/khdr/linux/"
	sed 's|^\(#define ALLOCINFO_PROC[[:space:]]*"/proc/allocinfo\)"$|\1_ext"|' \
		"$AIE_KSFT7/$t/alloc_tag/allocinfo_ioctl_test.c" \
		>"$dir/$t/alloc_tag/allocinfo_ioctl_test.c"
	# the file name alone: one line removed, one added, and only that
	[ "$(diff "$AIE_KSFT7/$t/alloc_tag/allocinfo_ioctl_test.c" \
		"$dir/$t/alloc_tag/allocinfo_ioctl_test.c" | grep -c '^[<>]')" = 2 ] &&
		grep -q '^#define ALLOCINFO_PROC.*"/proc/allocinfo_ext"$' \
			"$dir/$t/alloc_tag/allocinfo_ioctl_test.c" ||
		aie_die "allocinfo_ioctl_test.c: cannot point it at /proc/allocinfo_ext alone"
	# its Makefile's flags (-Wall, the UAPI headers), static for the guest
	aie_root_run "$AIE_ROOT_REL" "${AIE_CROSS:-}gcc" -static -Wall \
		-I "$dir/khdr" -o "$dest" "$dir/$t/alloc_tag/allocinfo_ioctl_test.c" ||
		aie_die "allocinfo_ioctl_test build failed"
}

# aie_dbg_vmlinux: into AIE_DBG_ROOT, a directory holding $AIE_KREL's debug
# vmlinux at the path linux-image-$AIE_KREL-dbg installs it
# (usr/lib/debug/boot/vmlinux-$AIE_KREL, from 7.x a link to
# lib/modules/$AIE_KREL/vmlinux), fetched and extracted when missing (that
# file alone: tar stops once it has both names, dpkg-deb dies of SIGPIPE);
# status 1 when Debian has no such package. Under a lock: check-all boots
# kernels at once, and make boot-check uses it too.
aie_dbg_vmlinux() {
	local pkg=linux-image-$AIE_KREL-dbg d
	local vml=usr/lib/debug/boot/vmlinux-$AIE_KREL
	AIE_DBG_ROOT=$AIE_DBG/$AIE_KREL
	[ -s "$AIE_DBG_ROOT/$vml" ] && return 0
	aie_apt apt-cache show "$pkg" >/dev/null 2>&1 || return 1
	mkdir -p "$AIE_DBG"
	(
		flock 7
		[ -s "$AIE_DBG_ROOT/$vml" ] && exit 0
		aie_log "fetching $pkg for its vmlinux (into $AIE_DBG)"
		d=$(mktemp -d "$AIE_DBG/new.XXXXXX")
		(cd "$d" && aie_apt apt-get download "$pkg" >&2) ||
			{ rm -rf "$d"; aie_die "apt-get download $pkg failed"; }
		# 7.x's is a link to lib/modules/<release>/vmlinux: both
		dpkg-deb --fsys-tarfile "$d/${pkg}_"*.deb 2>/dev/null |
			tar -C "$d" -x --occurrence=1 "./$vml" \
				"./usr/lib/debug/lib/modules/$AIE_KREL/vmlinux" \
				2>/dev/null || true
		[ -s "$d/$vml" ] || { rm -rf "$d"; aie_die "no $vml in $pkg"; }
		rm -f "$d/${pkg}_"*.deb
		rm -rf "$AIE_DBG_ROOT" && mv "$d" "$AIE_DBG_ROOT"
	) 7>"$AIE_DBG/.lock" || exit 1
}

# aie_dbg_initrd: the initramfs with the debug vmlinux appended, as
# $AIE_OUT/initramfs-dbg.cpio (the kernel unpacks archives one after the
# other, each from a 4-byte boundary); status 1 when there is no vmlinux.
aie_dbg_initrd() {
	local gz=$AIE_OUT/initramfs.cpio.gz out=$AIE_OUT/initramfs-dbg.cpio
	aie_dbg_vmlinux || return 1
	cp "$gz" "$out"
	head -c $(( (4 - $(stat -c %s "$gz") % 4) % 4 )) /dev/zero >>"$out"
	(cd "$AIE_DBG_ROOT" && find usr | cpio -o -H newc --quiet) >>"$out" ||
		aie_die "cannot pack $AIE_DBG_ROOT"
}
