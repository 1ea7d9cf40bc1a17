#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boot-test.sh - `make boot-check`: the module loaded at boot the way a
# Debian user meets it. In a Debian bookworm root (debootstrap, kept in
# $AIE_CACHE/boot with its stamp, as tools/vm/kernels.sh keeps the build
# roots) with systemd, initramfs-tools, gcc and KERNEL's image and headers
# (a name of kernels.sh's table, default 6.12, or a linux-image-*.deb with
# its headers beside it, installed with dpkg):
#
#   - make install PREFIX=/usr KDIR=/usr/src/linux-headers-<release> in a
#     clean copy of the tree: module, tool, initramfs-tools hook and
#     init-top script, then update-initramfs -u;
#   - lsinitramfs lists the module and the init-top script, which the
#     initramfs's ORDER runs before udev's;
#   - INITRAMFS=no in /etc/default/allocinfo-ext: mkinitramfs leaves the
#     module out;
#   - a disk image of the root (mkfs.ext4 -d) boots that initramfs under
#     QEMU (TCG, no5lvl) with systemd as PID 1; at the end of boot
#     (boot-guest/aie-boot-check) the module is live, /proc/allocinfo_ext
#     has rows, and the kernel log has the module's first line after the
#     kernel runs the initramfs's /init, before the line of the root's
#     ext4 mount and before systemd's first line;
#   - annotate (KERNEL of the table only): with the kernel's debug vmlinux
#     (that file alone of linux-image-<release>-dbg, kept in $AIE_DBG)
#     and aie_helper in the image, udev starts allocinfo-ext-annotate.service
#     at boot and when the guest loads aie_helper (boot-guest/
#     aie-annotate-check): built-in rows and every [aie_helper] row get
#     <file>:<line> (aie_helper_kstrdup's, its kstrdup() call's), and its
#     timer is active, without anyone running annotate; without the
#     vmlinux, starting the unit runs nothing.
#
# AIE_BOOT_INITRD=dracut (`make boot-check BOOT_INITRD=dracut`): the root
# also has dracut-core (which initramfs-tools does not conflict with) and
# after the checks above, make install must have put the dracut module in
# /usr/lib/dracut/modules.d; a generic dracut image of the kernel
# (--no-hostonly: the build host's disks are not the guest's) must list
# the module and the pre-udev hook, INITRAMFS=no must leave both out, and
# the dracut image is the one booted. dracut's initramfs runs systemd
# itself, so the module's first line need only come after /init starts
# and before the root's mount.
#
# AIE_BOOT_PKG=1 (`make boot-check BOOT_PKG=1`): the packages of
# build-deb.sh instead of make install: apt-get install of both .debs in
# the root, whose DKMS postinst builds the module into updates/dkms and
# whose POST_INSTALL packs the initramfs again; the same checks, and in
# the guest the export's timer (enabled by the package) active and its
# service's file, /var/lib/prometheus/node-exporter/allocinfo_ext.prom
# (the directory made as prometheus-node-exporter makes it), written
# within 3 minutes of boot. Then apt-get purge: the initramfs (packed
# again by the package's trigger) and DKMS's tree must hold nothing of
# ours.
#
# AIE_BOOT_MEASURE=1 (`make bench-boot`): the guest also reads the live
# bytes of /proc/allocinfo (a kernel with CONFIG_MEM_ALLOC_PROFILING) and
# /proc/allocinfo_ext at the end of boot and after a 20-second stress-ng
# mix, and the share /proc/allocinfo_ext holds is printed, with the stats
# file's tracked_objects, untracked and slab_map_full and /proc/slabinfo's
# live objects. AIE_BOOT_FILES=N (`make bench-boot BOOT_FILES=N`): then N
# empty files made and kept on a tmpfs (a dentry and an inode each), and
# the same figures again. The functions /proc/allocinfo holds most more
# of than /proc/allocinfo_ext, at the last measurement, are printed too
# ($AIE_OUT/gap.txt: at each). AIE_BOOT_MEM: the guest's memory (default
# 1G; `make bench-boot BOOT_MEM=4G`).
#
# Needs root (chroot, debootstrap); SKIP otherwise. Prints TAP lines
# "ok - host: boot: ..." and a closing "N passed, N failed" line; exits 1
# when one failed. The guest's logs: $AIE_BUILD/boot-<release>/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ]; then
	aie_skip "boot: make install, initramfs, systemd boot" "not root"
	exit 0
fi

KERNEL=${KERNEL:-6.12}
# what the boot root has besides a build root's packages (kernels.sh)
AIE_BOOT_PKGS="systemd-sysv udev initramfs-tools zstd procps libdw-dev
	libncurses-dev stress-ng"
AIE_ROOTS=$AIE_CACHE/boot
REL=bookworm
root=$AIE_ROOTS/$REL
aie_apt_install debootstrap qemu-system-x86 e2fsprogs rsync
# One run at a time: each installs into the shared root and takes out
# again what it put there; two at once undo each other's files.
mkdir -p "$AIE_ROOTS"
exec 6>"$AIE_ROOTS/.boot-test.lock"
flock 6
aie_root "$REL"
aie_root_apt "$REL" $AIE_BOOT_PKGS
INITRD_TOOL=${AIE_BOOT_INITRD:-initramfs-tools}
case "$INITRD_TOOL" in
initramfs-tools) ;;
dracut) aie_root_apt "$REL" dracut-core ;;
*) aie_die "AIE_BOOT_INITRD=$INITRD_TOOL: initramfs-tools or dracut" ;;
esac

# The kernel, installed as a user installs it: the archive's packages by
# the root's apt, a .deb by dpkg. INITRD=No (aie_root_apt) leaves the
# first initramfs to update-initramfs -c below, as the kernel's postinst
# would have made it.
case "$KERNEL" in
*.deb)
	KREL=$(dpkg-deb -f "$KERNEL" Package | sed 's/^linux-image-//')
	hdr=$(ls "$(dirname "$KERNEL")/linux-headers-${KREL}_"*.deb | head -n1)
	if ! aie_root_run "$REL" dpkg-query -W -f='${Status}\n' \
		"linux-image-$KREL" "linux-headers-$KREL" 2>/dev/null |
		grep -c 'install ok installed' | grep -qx 2; then
		mkdir -p "$root/var/cache/aie-debs"
		cp "$KERNEL" "$hdr" "$root/var/cache/aie-debs/"
		aie_root_run "$REL" env INITRD=No dpkg -i \
			"/var/cache/aie-debs/$(basename "$KERNEL")" \
			"/var/cache/aie-debs/$(basename "$hdr")" >&2 ||
			aie_die "dpkg -i $KERNEL in the boot root failed"
		rm -rf "$root/var/cache/aie-debs"
	fi
	;;
*)
	aie_kernel_name "$KERNEL" || aie_die "KERNEL=$KERNEL: a name of kernels.sh or a .deb"
	[ "$AIE_ARCH" = x86_64 ] || aie_die "KERNEL=$KERNEL: amd64 kernels only"
	KREL=$AIE_KREL
	aie_root_apt "$REL" "linux-image-$KREL" "linux-headers-$KREL"
	;;
esac
[ -e "$root/boot/initrd.img-$KREL" ] ||
	aie_root_run "$REL" update-initramfs -c -k "$KREL" >&2 ||
	aie_die "update-initramfs -c -k $KREL in the boot root failed"

# a switch left by an interrupted run
rm -f "$root/etc/default/allocinfo-ext"
# AIE_BOOT_PKG: the packages go at exit (apt-get purge), as they came
pkg_on=
pkg_cleanup() {
	[ -n "$pkg_on" ] || return 0
	aie_root_run "$REL" env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq \
		allocinfo-ext allocinfo-ext-dkms >&2 || true
	rm -rf "$root/var/cache/aie-debs"
}
trap pkg_cleanup EXIT
AIE_OUT=$AIE_BUILD/boot-$KREL
TMP=$AIE_OUT/tmp
rm -rf "$AIE_OUT" && mkdir -p "$TMP"
initrd=/boot/initrd.img-$KREL

# make install, as the admin guide says, from a clean copy of the tree
# (kept for aie_helper's build); or the packages
src=$AIE_OUT/src
aie_stage_tree "$src"
if [ -z "${AIE_BOOT_PKG:-}" ]; then
	aie_check "boot: $REL root: make install PREFIX=/usr KDIR=<$KREL> exits 0" \
		"$AIE_OUT/make-install.log" aie_root_run "$REL" make -C "$src" -j2 \
		install PREFIX=/usr KDIR="/usr/src/linux-headers-$KREL"
	grep -q "update-initramfs: Generating $initrd" "$AIE_OUT/make-install.log" &&
		aie_ok "boot: make install ran update-initramfs -u -k $KREL" ||
		aie_not_ok "boot: make install ran update-initramfs -u -k $KREL" \
			"$(tail -n 20 "$AIE_OUT/make-install.log")"
else
	"$AIE_TOP/tools/pkg/build-deb.sh" >&2
	debs=${AIE_DEB_OUT:-$AIE_BUILD/deb}
	pkg_install() {
		mkdir -p "$root/var/cache/aie-debs" &&
			cp "$debs"/*.deb "$root/var/cache/aie-debs/" &&
			aie_root_run "$REL" sh -c 'cd /var/cache/aie-debs &&
				DEBIAN_FRONTEND=noninteractive apt-get install -y \
				--no-install-recommends ./allocinfo-ext-dkms_*_all.deb \
				./allocinfo-ext_*_amd64.deb'
	}
	# what make install of an earlier make boot-check left in the root
	rm -f "$root/lib/modules/$KREL/extra/allocinfo_ext.ko"* \
		"$root/usr/share/initramfs-tools/hooks/allocinfo_ext" \
		"$root/usr/share/initramfs-tools/scripts/init-top/allocinfo_ext"
	aie_root_run "$REL" depmod -a "$KREL"
	pkg_on=1
	aie_check "boot: $REL root: apt-get install ./allocinfo-ext-dkms_*.deb ./allocinfo-ext_*.deb exits 0" \
		"$AIE_OUT/make-install.log" pkg_install
	grep -q "update-initramfs: Generating $initrd" "$AIE_OUT/make-install.log" &&
		aie_ok "boot: DKMS's POST_INSTALL ran update-initramfs -u -k $KREL" ||
		aie_not_ok "boot: DKMS's POST_INSTALL ran update-initramfs -u -k $KREL" \
			"$(tail -n 20 "$AIE_OUT/make-install.log")"
	# node_exporter's textfile directory, as prometheus-node-exporter makes it
	mkdir -p "$root/var/lib/prometheus/node-exporter"
fi

# lsinitramfs IMAGE FILE: list IMAGE, in the root, into FILE
lsinitramfs_to() {
	aie_root_run "$REL" lsinitramfs "$1" >"$2"
}
lsinitramfs_to "$initrd" "$AIE_OUT/lsinitramfs.txt" ||
	aie_die "lsinitramfs $initrd failed"
modre="^(usr/)?lib/modules/$(sed 's/[.+]/\\&/g' <<<"$KREL")/(extra|updates/dkms)/allocinfo_ext\.ko"
aie_check "boot: lsinitramfs $initrd lists lib/modules/$KREL/{extra,updates/dkms}/allocinfo_ext.ko*" \
	"$TMP/ls.log" grep -E "$modre" "$AIE_OUT/lsinitramfs.txt"
aie_check "boot: lsinitramfs $initrd lists scripts/init-top/allocinfo_ext" \
	"$TMP/ls.log" grep -x "scripts/init-top/allocinfo_ext" "$AIE_OUT/lsinitramfs.txt"

# check_order: the initramfs's init-top ORDER runs allocinfo_ext before udev
check_order() {
	local dir=$AIE_OUT/unpacked a u
	aie_root_run "$REL" unmkinitramfs "$initrd" "$dir" || return 1
	cat "$dir"/{main/,}scripts/init-top/ORDER 2>/dev/null
	a=$(grep -n '/scripts/init-top/allocinfo_ext ' "$dir"/{main/,}scripts/init-top/ORDER 2>/dev/null | cut -d: -f2)
	u=$(grep -n '/scripts/init-top/udev ' "$dir"/{main/,}scripts/init-top/ORDER 2>/dev/null | cut -d: -f2)
	[ -n "$a" ] && [ -n "$u" ] && [ "$a" -lt "$u" ]
}
aie_check "boot: the initramfs runs init-top/allocinfo_ext before init-top/udev" \
	"$TMP/order.log" check_order

# The switch: INITRAMFS=no leaves the module out of a new initramfs.
# The root is this script's own: no file there but the one written here.
def=$root/etc/default/allocinfo-ext
trap 'rm -f "$def"; pkg_cleanup' EXIT
echo "INITRAMFS=no" >"$def"
if aie_root_run "$REL" mkinitramfs -o /tmp/initrd-off "$KREL" >"$TMP/off.log" 2>&1 &&
	lsinitramfs_to /tmp/initrd-off "$AIE_OUT/lsinitramfs-off.txt"; then
	if grep -qE "$modre" "$AIE_OUT/lsinitramfs-off.txt"; then
		aie_not_ok "boot: INITRAMFS=no in /etc/default/allocinfo-ext: mkinitramfs leaves the module out" \
			"$(grep -E "$modre" "$AIE_OUT/lsinitramfs-off.txt")"
	else
		aie_ok "boot: INITRAMFS=no in /etc/default/allocinfo-ext: mkinitramfs leaves the module out"
	fi
else
	aie_not_ok "boot: INITRAMFS=no in /etc/default/allocinfo-ext: mkinitramfs leaves the module out" \
		"$(tail -n 20 "$TMP/off.log")"
fi
rm -f "$def" "$root/tmp/initrd-off"
boot_initrd=$root$initrd

if [ "$INITRD_TOOL" = dracut ]; then
	ddir=/usr/lib/dracut/modules.d/90allocinfo-ext
	aie_check "boot: make install put the dracut module in $ddir" "$TMP/d.log" \
		test -x "$root$ddir/module-setup.sh" -a -x "$root$ddir/allocinfo-ext.sh"
	# dracut_to IMAGE LOG: a generic dracut image of KREL, made in the root
	dracut_to() {
		aie_root_run "$REL" dracut -f --no-hostonly --compress zstd \
			"$1" "$KREL" >"$2" 2>&1
	}
	dhook=usr/lib/dracut/hooks/pre-udev/00-allocinfo-ext.sh
	# lsinitrd's lines end with the path
	dmodre="(^| )(usr/)?lib/modules/$(sed 's/[.+]/\\&/g' <<<"$KREL")/extra/allocinfo_ext\.ko(\.[a-z]+)?$"
	dimg=$AIE_OUT/initramfs-dracut.img
	dracut_to "$dimg" "$AIE_OUT/dracut.log" ||
		aie_die "dracut -f $dimg $KREL failed: $(tail -n 20 "$AIE_OUT/dracut.log")"
	aie_root_run "$REL" lsinitrd "$dimg" >"$AIE_OUT/lsinitrd.txt" ||
		aie_die "lsinitrd $dimg failed"
	aie_check "boot: lsinitrd of dracut's image lists lib/modules/$KREL/extra/allocinfo_ext.ko*" \
		"$TMP/ls.log" grep -E "$dmodre" "$AIE_OUT/lsinitrd.txt"
	aie_check "boot: lsinitrd of dracut's image lists $dhook" \
		"$TMP/ls.log" grep -E "(^| )$dhook$" "$AIE_OUT/lsinitrd.txt"
	echo "INITRAMFS=no" >"$def"
	if dracut_to "$AIE_OUT/initramfs-dracut-off.img" "$TMP/doff.log" &&
		aie_root_run "$REL" lsinitrd "$AIE_OUT/initramfs-dracut-off.img" \
			>"$AIE_OUT/lsinitrd-off.txt"; then
		if grep -E "$dmodre|(^| )$dhook$" "$AIE_OUT/lsinitrd-off.txt" \
			>"$TMP/off-found.txt"; then
			aie_not_ok "boot: INITRAMFS=no: dracut leaves the module and its hook out" \
				"$(cat "$TMP/off-found.txt")"
		else
			aie_ok "boot: INITRAMFS=no: dracut leaves the module and its hook out"
		fi
	else
		aie_not_ok "boot: INITRAMFS=no: dracut leaves the module and its hook out" \
			"$(tail -n 20 "$TMP/doff.log")"
	fi
	rm -f "$def" "$AIE_OUT/initramfs-dracut-off.img"
	boot_initrd=$dimg
fi

# The guest's check, run by systemd at the end of boot.
install -m 0755 "$AIE_TOP/tools/pkg/boot-guest/aie-boot-check" "$root/usr/local/sbin/"
install -m 0644 "$AIE_TOP/tools/pkg/boot-guest/aie-boot-check.service" \
	"$root/etc/systemd/system/"
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -sf ../aie-boot-check.service \
	"$root/etc/systemd/system/multi-user.target.wants/aie-boot-check.service"

# --- annotate: allocinfo-ext-annotate.service, started by udev ---
# The kernel's debug vmlinux as linux-image-<release>-dbg installs it: that
# file alone of the package, extracted once into $AIE_DBG
# (tools/vm/kernel-test.sh's aie_dbg_vmlinux). In the root while its
# image is made, with aie_helper (built against the headers, with DWARF
# as every module built against Debian's headers) in extra/, and the
# guest's part (boot-guest/aie-annotate-check). Not for a .deb kernel:
# the archive has no -dbg package for it.
annotate_vmlinux=/usr/lib/debug/boot/vmlinux-$KREL
annotate_prepare() {
	local dbg
	aie_dbg_vmlinux || return 1
	dbg=$AIE_DBG_ROOT
	mkdir -p "$root$(dirname "$annotate_vmlinux")"
	ln -fL "$dbg$annotate_vmlinux" "$root$annotate_vmlinux" ||
		cp -L "$dbg$annotate_vmlinux" "$root$annotate_vmlinux" || return 1
	aie_root_run "$REL" make -C "$src/selftests/allocinfo_ext/aie_helper" \
		KDIR="/usr/src/linux-headers-$KREL" >&2 || return 1
	install -D -m 0644 "$src/selftests/allocinfo_ext/aie_helper/aie_helper.ko" \
		"$root/lib/modules/$KREL/extra/aie_helper.ko" &&
		aie_root_run "$REL" depmod -a "$KREL" &&
		install -m 0755 "$AIE_TOP/tools/pkg/boot-guest/aie-annotate-check" \
			"$root/usr/local/sbin/"
}
annotate_cleanup() {
	rm -f "$root$annotate_vmlinux" "$root/usr/local/sbin/aie-annotate-check" \
		"$root/lib/modules/$KREL/extra/aie_helper.ko"
	aie_root_run "$REL" depmod -a "$KREL"
}
annotate_on=
case "$KERNEL" in
*.deb) aie_skip "boot: annotate: allocinfo-ext-annotate.service" "no -dbg package for a .deb kernel" ;;
*)
	# the root is shared: what was added leaves it on any exit too
	trap 'rm -f "$def"; annotate_cleanup; pkg_cleanup' EXIT
	if annotate_prepare >"$AIE_OUT/annotate-prepare.log" 2>&1; then
		annotate_on=1
	else
		aie_not_ok "boot: annotate: the debug vmlinux of $KREL, aie_helper, in the root" \
			"$(tail -n 20 "$AIE_OUT/annotate-prepare.log")"
		annotate_cleanup
		trap 'rm -f "$def"; pkg_cleanup' EXIT
	fi
	;;
esac
# --- end of annotate's preparation ---

# The root's disk: an ext4 image of it, 512 MiB to spare.
img=$AIE_OUT/root.img
size=$(( $(du -sxm "$root" | cut -f1) + 512 ))
truncate -s "${size}M" "$img"
mkfs.ext4 -q -F -L aieroot -d "$root" "$img" || aie_die "mkfs.ext4 -d $root failed"
if [ -n "$annotate_on" ]; then	# annotate: in the image only
	annotate_cleanup
	trap 'rm -f "$def"; pkg_cleanup' EXIT
fi

cp "$boot_initrd" "$AIE_OUT/initramfs.cpio.gz"
AIE_VMLINUZ=$root/boot/vmlinuz-$KREL
AIE_ARCH=x86_64 AIE_KREL=$KREL
export AIE_VM_MEM=${AIE_BOOT_MEM:-${AIE_VM_MEM:-1G}}
export AIE_QEMU_EXTRA="-drive file=$img,format=raw,if=virtio"
files=0
append="root=/dev/vda rw"
[ -z "${AIE_BOOT_PKG:-}" ] || append="$append aie.pkg=1"
if [ -n "${AIE_BOOT_MEASURE:-}" ]; then
	files=${AIE_BOOT_FILES:-0}
	append="$append aie.measure=1"
	[ "$files" = 0 ] || append="$append aie.files=$files"
fi
export AIE_APPEND="$append ${AIE_APPEND:-}"
start=$(date +%s)
set +e
# the files take time under TCG: a second a thousand, to spare
aie_boot boot "${AIE_TIMEOUT:-$((900 + files / 1000))}"
qemu_rc=$?
set -e
aie_log "the boot took $(( $(date +%s) - start )) s (QEMU status $qemu_rc)"
out=$AIE_OUT/output.log
touch "$out" "$AIE_OUT/console.log"
sed -n '/^AIE-BOOT-BEGIN/,/^AIE-BOOT-END/p' "$out" | tr -d '\r' >"$AIE_OUT/guest.txt"
g=$AIE_OUT/guest.txt

if grep -q '^AIE-BOOT-END' "$g"; then
	aie_ok "boot: the guest's check ran at the end of boot"
else
	aie_not_ok "boot: the guest's check ran at the end of boot" \
		"QEMU status $qemu_rc" "$(tail -n 20 "$AIE_OUT/console.log")"
fi
check_line() { grep -qx "$1" "$g" || { grep "^${1%% *} " "$g"; return 1; }; }
aie_check "boot: PID 1 is systemd" "$TMP/g.log" check_line "pid1 systemd"
aie_check "boot: allocinfo_ext is live" "$TMP/g.log" check_line "initstate live"
check_rows() {
	local n
	n=$(sed -n 's/^rows //p' "$g")
	echo "rows: $n"
	[ -n "$n" ] && [ "$n" -gt 0 ]
}
aie_check "boot: /proc/allocinfo_ext has rows at the end of boot" "$TMP/g.log" check_rows
# the packages' export timer, enabled by their postinst, wrote its file
check_export() {
	grep '^export-' "$g"
	[ "$(sed -n 's/^export-timer //p' "$g")" = active ] &&
		[ "$(sed -n 's/^export-file //p' "$g")" -gt 0 ]
}
[ -z "${AIE_BOOT_PKG:-}" ] ||
	aie_check "boot: allocinfo-ext-export.timer is active and its service wrote allocinfo_ext.prom's series" \
		"$TMP/export.log" check_export

# check_early: in the kernel log, the module's first line comes after the
# kernel starts the initramfs's init and before the root's mount and
# (initramfs-tools) systemd's first line.
check_early() {
	local i m r s
	grep -n '^kmsg ' "$g" >"$TMP/kmsg"
	i=$(grep -m1 'Run /init as init process' "$TMP/kmsg" | cut -d: -f1)
	m=$(grep -m1 'allocinfo_ext: ' "$TMP/kmsg" | cut -d: -f1)
	r=$(grep -m1 -E 'EXT4-fs \(vda\): mounted filesystem' "$TMP/kmsg" | cut -d: -f1)
	s=$(grep -m1 'systemd\[1\]' "$TMP/kmsg" | cut -d: -f1)
	grep -m1 'Run /init as init process' "$TMP/kmsg"
	grep -m1 'allocinfo_ext: ' "$TMP/kmsg"
	grep -m1 -E 'EXT4-fs \(vda\): mounted filesystem' "$TMP/kmsg"
	grep -m1 'systemd\[1\]' "$TMP/kmsg"
	[ -n "$i" ] && [ -n "$m" ] && [ -n "$r" ] && [ -n "$s" ] &&
		[ "$i" -lt "$m" ] && [ "$m" -lt "$r" ] &&
		{ [ "$INITRD_TOOL" = dracut ] || [ "$m" -lt "$s" ]; }
}
early="after /init starts, before the root's ext4 mount"
[ "$INITRD_TOOL" = dracut ] || early="$early and systemd's first line"
aie_check "boot: the kernel log has allocinfo_ext's first line $early" \
	"$AIE_OUT/early.log" check_early
sed -n 's/^kmsg //p' "$g" >"$TMP/kmsg.txt"
bad=$(aie_bad_log "$TMP/kmsg.txt")
if [ -z "$bad" ]; then
	aie_ok "boot: kernel log free of BUG/WARNING/Oops/KASAN/lockdep reports"
else
	aie_not_ok "boot: kernel log free of BUG/WARNING/Oops/KASAN/lockdep reports" "$bad"
fi

# --- annotate: the guest's findings (boot-guest/aie-annotate-check) ---
# At boot, udev's coldplug of the loaded modules started the unit, which
# located built-in sites from the debug vmlinux; after modprobe aie_helper
# (udev's queue held while it allocates), the run its "add" event started
# gave every one of its rows a line: that of aie_helper_kstrdup exactly
# its kstrdup() call in aie_helper_slab.c. Prints the runs' CPU times.
annotate_line() { sed -n "s/^annotate $1 //p" "$g"; }
annotate_boot() {
	local k
	k=$(annotate_line kernel-rows)
	echo "idle: $(annotate_line boot-idle), runs: $(annotate_line boot-runs), built-in rows located/all: $k"
	annotate_line journal | grep '^annotate: '
	[ "$(annotate_line boot-idle)" = 0 ] && [ "$(annotate_line boot-runs)" -ge 1 ] &&
		[ "${k%% *}" -gt 0 ] && ! annotate_line journal | grep '^annotate: ' | grep -vq ' 0 failed;'
}
annotate_helper() {
	local h
	h=$(annotate_line helper-rows)
	echo "modprobe: $(annotate_line modprobe), [aie_helper] rows located/all: $h, after $(annotate_line helper-seconds) s"
	[ "$(annotate_line modprobe)" = 0 ] && [ "${h#* }" -gt 0 ] && [ "${h%% *}" = "${h#* }" ]
}
annotate_kstrdup() {
	local f=aie_helper_slab.c file line want
	file=$(annotate_line source | grep -m1 "/$f\$")
	line=$(awk '/^noinline void \*aie_helper_kstrdup\(void\)/ { s = 1 }
		s && /kstrdup\(aie_helper_str/ { print NR; exit }' \
		"$AIE_TOP/selftests/allocinfo_ext/aie_helper/$f")
	want="$file:$line"
	echo "row: $(annotate_line kstrdup), want: $want"
	[ -n "$file" ] && [ -n "$line" ] && [ "$(annotate_line kstrdup)" = "$want" ]
}
if [ -n "$annotate_on" ]; then
	aie_check "boot: annotate: udev started allocinfo-ext-annotate.service at boot; built-in rows have <file>:<line> from the debug vmlinux, 0 failed" \
		"$AIE_OUT/annotate-boot.log" annotate_boot
	aie_check "boot: annotate: after modprobe aie_helper, every [aie_helper] row has <file>:<line>, nobody running annotate" \
		"$AIE_OUT/annotate-helper.log" annotate_helper
	aie_check "boot: annotate: aie_helper_kstrdup's row is its kstrdup() call's <file>:<line>" \
		"$AIE_OUT/annotate-kstrdup.log" annotate_kstrdup
	aie_check "boot: annotate: allocinfo-ext-annotate.timer is active" \
		"$AIE_OUT/annotate-timer.log" test "$(annotate_line timer)" = active
	# "0 no <runs>": systemctl start exited 0, the condition failed, no new run
	aie_check "boot: annotate: without the debug vmlinux, the unit is skipped: no run" \
		"$AIE_OUT/annotate-nodbg.log" test "$(annotate_line no-dbg)" = "0 no $(annotate_line runs)"
	annotate_line journal | grep -E 'Consumed|^annotate: ' | sed 's/^/# annotate: /'
fi
# --- end of annotate's findings ---

if [ -n "${AIE_BOOT_MEASURE:-}" ]; then
	whens="boot workload"
	[ "$files" = 0 ] || whens="$whens files"
	# measured: a share and a stats line at each point, stress-ng and
	# the files (if any) done
	measured() {
		local w
		grep -E '^(share|stats|stress-ng|files) ' "$g"
		for w in $whens; do
			grep -q "^share $w " "$g" && grep -q "^stats $w " "$g" || return 1
		done
		grep -qx 'stress-ng 0' "$g" &&
			{ [ "$files" = 0 ] || grep -q "^files $files 0 " "$g"; }
	}
	what="stress-ng exited 0"
	[ "$files" = 0 ] || what="$what, $files files made"
	aie_check "boot: measured at the end of boot and after the workload ($what)" \
		"$AIE_OUT/measure.log" measured
	grep '^gap ' "$g" >"$AIE_OUT/gap.txt" || true
	echo "kernel $KREL, $AIE_VM_MEM guest ($(sed -n 's/^mem //p' "$g") kB), allocinfo_ext loaded from the initramfs, systemd boot"
	[ "$files" = 0 ] || echo "files: $files made in $(awk -v n="$files" '$1 == "files" && $2 == n { print $4 }' "$g") s"
	echo "(live bytes less the rows of [allocinfo_ext]; objects: /proc/slabinfo's live ones)"
	printf '%-9s %13s %13s %6s %12s %11s %9s %6s %11s\n' when allocinfo \
		allocinfo_ext share memory_bytes tracked untracked full objects
	awk '$1 == "share" {
		base = $3 - $4; ext = $5 - $6
		sh[$2] = sprintf("%-9s %13.0f %13.0f %5.1f%% %12.0f", $2, base, ext,
			base ? 100 * ext / base : 0, $7)
		order[++n] = $2
	}
	$1 == "stats" { st[$2] = sprintf(" %11.0f %9.0f %6.0f %11.0f", $3, $4, $5, $7) }
	END { for (i = 1; i <= n; i++) print sh[order[i]] st[order[i]] }' "$g"
	last=${whens##* }
	echo "# the functions /proc/allocinfo holds most more of ($last; bytes: difference, allocinfo, allocinfo_ext):"
	awk -v w="$last" '$2 == w && $3 > 0 { printf "#   %12.0f %12.0f %12.0f %s\n", $3, $4, $5, $6 }' \
		"$AIE_OUT/gap.txt" | head -n 15
fi

# The packages' purge: prerm's dkms remove, then their update-initramfs
# trigger packs the image again without the hook: nothing of ours left
# in it, nor in DKMS's tree.
if [ -n "$pkg_on" ]; then
	aie_check "boot: apt-get purge allocinfo-ext allocinfo-ext-dkms exits 0" \
		"$AIE_OUT/purge.log" aie_root_run "$REL" env DEBIAN_FRONTEND=noninteractive \
		apt-get purge -y allocinfo-ext allocinfo-ext-dkms
	pkg_on=
	rm -rf "$root/var/cache/aie-debs"
	purged() {
		lsinitramfs_to "$initrd" "$TMP/ls-purged.txt" || return 1
		! grep allocinfo "$TMP/ls-purged.txt" &&
			! find "$root/var/lib/dkms" "$root/usr/src" "$root/lib/modules" \
				-name '*allocinfo*' | grep .
	}
	aie_check "boot: after the purge, $initrd and DKMS's tree hold nothing of allocinfo_ext" \
		"$TMP/purged.log" purged
fi

echo "$AIE_PKG_PASSES passed, $AIE_PKG_FAILS failed"
exit "$AIE_PKG_FAILED"
