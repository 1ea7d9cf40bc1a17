#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dkms-test.sh - `make dkms-check`, and part of make check's host tests:
# the module through each Debian release's own DKMS, in that release's
# root (tools/vm/kernels.sh), for every kernel of the matrix it ships:
#
#   bullseye root: 5.10     bookworm root: 6.1, 6.12, 6.12-rt, 6.12-cloud
#   trixie root: 7
#
# In each root, with initramfs-tools installed (by the root's apt, once),
# as Documentation/admin-guide.rst tells an administrator:
#
#   copy dkms.conf Kbuild Makefile include module tools/initramfs
#   tools/dracut to /usr/src/<name>-<ver>
#   dkms add; then for each kernel: dkms build -k, dkms install -k
#   dkms remove --all
#
# and checks that each installed module has its kernel's vermagic and is
# the one modinfo -k finds (depmod ran), that POST_INSTALL installed the
# initramfs-tools hook and init-top script and POST_REMOVE took them
# away, that nothing is left registered, and that no trace is left:
# /usr/src, /var/lib/dkms, the kernels' /lib/modules/<release> (outside
# kernel/), /etc/initramfs-tools, dracut's modules.d and conf.d, /boot
# and /var/lib/initramfs-tools as they were, file for file (depmod's
# indexes by checksum). What DKMS creates on its way (a MOK signing key in
# /var/lib/dkms, depmod's indexes of a kernel that had none) is removed
# when it was not there before.
#
# The first kernel whose image is in the root (bookworm's 6.12; the
# bullseye and trixie roots hold headers only, and mkinitramfs needs the
# image's modules and config: SKIP there) gets an initramfs before dkms
# add, as its postinst would have made it (removed at the end when it
# was not there): after dkms install lsinitramfs must list allocinfo_ext.ko
# and scripts/init-top/allocinfo_ext in it; with INITRAMFS=no in
# /etc/default/allocinfo-ext, POST_INSTALL must leave it as it was and
# update-initramfs -u leave the module out; after dkms remove, neither.
#
# The bookworm-dracut root (make dkms-check only): bookworm with dracut,
# which takes initramfs-tools' place, and 6.12's image and headers. The
# same steps for 6.12, with dracut: POST_INSTALL installs the dracut
# module in /usr/lib/dracut/modules.d/90allocinfo-ext, lsinitrd lists the
# module and its pre-udev hook, INITRAMFS=no leaves both out, and after
# dkms remove nothing of allocinfo-ext is left, the image included.
#
# AIE_DKMS_ROOTS (default "bullseye bookworm trixie"; make dkms-check
# adds bookworm-dracut): the roots to go through. Needs root (chroot);
# SKIP otherwise. In a root, does nothing (SKIP) when allocinfo-ext is
# registered with DKMS already. Run by itself it goes through the roots;
# with AIE_DKMS_RELS (the kernel releases) set, it is the part that runs
# inside one root. Prints TAP lines "ok - host: dkms: ..." and exits 1
# when one failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

CONF=$AIE_TOP/dkms.conf
NAME=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' "$CONF")
VER=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$CONF")
[ -n "$NAME" ] && [ -n "$VER" ] || aie_die "$CONF: no PACKAGE_NAME or PACKAGE_VERSION"
SRC=/usr/src/$NAME-$VER
MOK_KEY=/var/lib/dkms/mok.key
MOK_CERT=/var/lib/dkms/mok.pub
HOOK=/etc/initramfs-tools/hooks/allocinfo_ext
SCRIPT=/etc/initramfs-tools/scripts/init-top/allocinfo_ext
DRACUT=/usr/lib/dracut/modules.d/90allocinfo-ext
DEFAULT=/etc/default/allocinfo-ext

if [ "$(id -u)" != 0 ]; then
	aie_skip "dkms: add, build, install, remove" "not root"
	exit 0
fi

# On the host: each root in turn, its kernels' headers installed there.
if [ -z "${AIE_DKMS_RELS:-}" ]; then
	rc=0
	for group in "5.10" "6.1 6.12 6.12-rt 6.12-cloud" "7"; do
		rels=()
		for name in $group; do
			aie_kernel_name "$name"
			[[ " ${AIE_DKMS_ROOTS:-bullseye bookworm trixie} " == *" $AIE_ROOT_REL "* ]] ||
				continue 2
			aie_root "$AIE_ROOT_REL"
			aie_root_apt "$AIE_ROOT_REL" "linux-headers-$AIE_KREL"
			rels+=("$AIE_KREL")
		done
		# what POST_INSTALL installs the hook for and refreshes with
		aie_root_apt "$AIE_ROOT_REL" initramfs-tools
		aie_root_run "$AIE_ROOT_REL" env AIE_DKMS_RELS="${rels[*]}" \
			AIE_DKMS_ROOT="$AIE_ROOT_REL" bash "$AIE_TOP/tools/pkg/dkms-test.sh" || rc=1
	done
	# bookworm with dracut, which takes initramfs-tools' place, and
	# 6.12's image (the kernel's dependency on an initramfs tool is met)
	if [[ " ${AIE_DKMS_ROOTS:-} " == *" bookworm-dracut "* ]]; then
		aie_kernel_name 6.12
		aie_root bookworm-dracut
		aie_root_apt bookworm-dracut dracut
		aie_root_apt bookworm-dracut "linux-headers-$AIE_KREL" "linux-image-$AIE_KREL"
		aie_root_run bookworm-dracut env AIE_DKMS_RELS="$AIE_KREL" \
			AIE_DKMS_ROOT=bookworm-dracut bash "$AIE_TOP/tools/pkg/dkms-test.sh" || rc=1
	fi
	exit "$rc"
fi
if [ -e "$SRC" ] || [ -e "/var/lib/dkms/$NAME" ]; then
	aie_skip "dkms: add, build, install, remove" \
		"$NAME is registered with DKMS already; left alone"
	exit 0
fi

read -r -a RELS <<<"$AIE_DKMS_RELS"

# The root's initramfs generator, as tools/initramfs/dkms tells it: what
# POST_INSTALL installs (FILES: installed path, shipped path; each), how
# an initramfs is made and listed, and our script's path in its listing.
if [ -r /usr/share/initramfs-tools/hook-functions ]; then
	GEN=initramfs-tools
	FILES=("$HOOK" tools/initramfs/hook "$SCRIPT" tools/initramfs/init-top)
	WHERE="hooks/allocinfo_ext and scripts/init-top/allocinfo_ext in /etc/initramfs-tools"
	OURS=scripts/init-top/allocinfo_ext
elif command -v dracut >/dev/null; then
	GEN=dracut
	FILES=("$DRACUT/module-setup.sh" tools/dracut/90allocinfo-ext/module-setup.sh
		"$DRACUT/allocinfo-ext.sh" tools/dracut/90allocinfo-ext/allocinfo-ext.sh)
	WHERE="the dracut module $DRACUT"
	OURS=usr/lib/dracut/hooks/pre-udev/00-allocinfo-ext.sh
else
	aie_die "$AIE_DKMS_ROOT root: neither initramfs-tools nor dracut"
fi

TMP=$(mktemp -d)
had_key=$([ -e "$MOK_KEY" ] && echo 1 || true)
had_cert=$([ -e "$MOK_CERT" ] && echo 1 || true)
wrote_default=

# What DKMS may touch, listed, with checksums of depmod's indexes.
snapshot() {
	local rel
	find /usr/src -maxdepth 1 | sort
	find /var/lib/dkms 2>/dev/null | sort
	# (a root without initramfs-tools' state directory: find says so)
	find /etc/initramfs-tools /boot /var/lib/initramfs-tools \
		/usr/lib/dracut/modules.d /etc/dracut.conf.d 2>/dev/null | sort || true
	for rel in "${RELS[@]}"; do
		find "/lib/modules/$rel" -path "/lib/modules/$rel/kernel" -prune \
			-o -print | sort
		find "/lib/modules/$rel" -maxdepth 1 -type f -name 'modules.*' \
			-exec md5sum {} + | sort
	done
}

# Take away what this test made, whatever state it stopped in.
cleanup() {
	local rel f
	dkms remove -m "$NAME" -v "$VER" --all >/dev/null 2>&1 || true
	rm -rf "$SRC" "/var/lib/dkms/$NAME"
	rm -f "$HOOK" "$SCRIPT"
	rm -rf "$DRACUT"
	if [ -n "$made_install" ]; then
		rm -f /lib/modules/"$INITRD_REL"/extra/allocinfo_ext.ko*
		rmdir "/lib/modules/$INITRD_REL/extra" 2>/dev/null || true
		depmod -a "$INITRD_REL"
		rmdir -p /etc/initramfs-tools/hooks /etc/initramfs-tools/scripts/init-top \
			2>/dev/null || true
		[ -n "$made_initrd" ] || pack >/dev/null 2>&1 || true
	fi
	[ -z "$wrote_default" ] || rm -f "$DEFAULT"
	wrote_default=
	[ ! -e "$TMP/default" ] || mv "$TMP/default" "$DEFAULT"
	if [ -n "$made_initrd" ]; then
		rm -f "/boot/initrd.img-$INITRD_REL" "/var/lib/initramfs-tools/$INITRD_REL"
	fi
	[ -n "$had_key" ] || rm -f "$MOK_KEY"
	[ -n "$had_cert" ] || rm -f "$MOK_CERT"
	for rel in "${RELS[@]}"; do
		for f in /lib/modules/"$rel"/modules.*; do
			[ -e "$f" ] || continue
			grep -qxF "$f" "$TMP/before" || rm -f "$f"
		done
		rmdir -p "/lib/modules/$rel/updates/dkms" 2>/dev/null || true
	done
}

# INITRD_REL: the first kernel an initramfs can be made for
INITRD_REL=
for rel in "${RELS[@]}"; do
	if [ -d "/lib/modules/$rel/kernel" ] && [ -e "/boot/config-$rel" ]; then
		INITRD_REL=$rel
		break
	fi
done
made_initrd=
made_install=

# The initramfs made in the root holds what the hooks add, ours among
# them, and no drivers (initramfs-tools: MODULES=list; Debian's default,
# most, packs every driver; dracut: without its kernel-modules modules):
# each of the packs takes seconds, not a minute under make check. The
# file is there for both snapshots and goes at exit.
case "$GEN" in
initramfs-tools)
	TEST_CONF=/etc/initramfs-tools/conf.d/zz-aie-dkms-test
	[ -z "$INITRD_REL" ] || echo MODULES=list >"$TEST_CONF"
	;;
dracut)
	TEST_CONF=/etc/dracut.conf.d/zz-aie-dkms-test.conf
	[ -z "$INITRD_REL" ] ||
		echo 'omit_dracutmodules+=" kernel-modules kernel-modules-extra kernel-network-modules "' \
			>"$TEST_CONF"
	;;
esac
snapshot >"$TMP/before"
trap 'cleanup; rm -rf "$TMP" "$TEST_CONF"' EXIT
# the root's own switch, if any, set aside: the test writes its own
[ ! -e "$DEFAULT" ] || mv "$DEFAULT" "$TMP/default"

# A kernel whose modules are installed has depmod's index, which DKMS
# needs to run depmod at all; a root may hold only the kernel's headers
# and the files they pull in (7.x: linux-base), without it. cleanup()
# takes it away again.
for rel in "${RELS[@]}"; do
	[ -e "/lib/modules/$rel/modules.dep" ] || depmod -a "$rel"
done

# check_installed REL: what dkms installed for REL is what modinfo -k
# finds, with REL's vermagic, and dkms says so.
check_installed() {
	local rel=$1 file vm
	file=$(modinfo -k "$rel" -F filename allocinfo_ext) ||
		{ echo "modinfo -k $rel finds no allocinfo_ext"; return 1; }
	case "$file" in
	"/lib/modules/$rel/updates/dkms/allocinfo_ext.ko"*) ;;
	*) echo "modinfo -k $rel finds $file"; return 1 ;;
	esac
	vm=$(modinfo -F vermagic "$file")
	[ "${vm%% *}" = "$rel" ] ||
		{ echo "vermagic '$vm', want '$rel ...'"; return 1; }
	dkms status -m "$NAME" -v "$VER" -k "$rel" | grep -q ': installed$' ||
		{ dkms status -m "$NAME" -v "$VER" -k "$rel"; return 1; }
}

# check_removed: DKMS knows nothing of the module, no kernel finds it.
check_removed() {
	local rel out
	out=$(dkms status -m "$NAME")
	[ -z "$out" ] || { echo "dkms status: $out"; return 1; }
	for rel in "${RELS[@]}"; do
		if modinfo -k "$rel" allocinfo_ext >/dev/null 2>&1; then
			echo "modinfo -k $rel still finds allocinfo_ext"
			return 1
		fi
	done
}

add_source() {
	local stage=$TMP/tree
	aie_stage_tree "$stage"
	mkdir "$SRC" &&
		(cd "$stage" && cp -r --parents dkms.conf Kbuild Makefile include \
			module tools/initramfs tools/dracut "$SRC/") &&
		dkms add -m "$NAME" -v "$VER"
}

# check_hook: POST_INSTALL installed FILES, executable, as shipped
check_hook() {
	local i
	for ((i = 0; i < ${#FILES[@]}; i += 2)); do
		[ -x "${FILES[i]}" ] || { echo "${FILES[i]}: missing or not executable"; return 1; }
		cmp "$AIE_TOP/${FILES[i + 1]}" "${FILES[i]}" || return 1
	done
}
# check_no_hook: POST_REMOVE took FILES (and dracut's directory) away
check_no_hook() {
	local i
	for ((i = 0; i < ${#FILES[@]}; i += 2)); do
		[ ! -e "${FILES[i]}" ] || { ls -l "${FILES[i]}"; return 1; }
	done
	[ ! -e "$DRACUT" ] || { ls -ld "$DRACUT"; return 1; }
}

# pack: make INITRD_REL's initramfs again, as the generator's kernel
# hook makes it (-c the first time)
pack() {
	case "$GEN" in
	initramfs-tools) update-initramfs "${1:--u}" -k "$INITRD_REL" ;;
	dracut) dracut -q -f "/boot/initrd.img-$INITRD_REL" "$INITRD_REL" ;;
	esac
}
# list_initrd FILE: lsinitramfs (lsinitrd) of INITRD_REL's initramfs
# into FILE: paths (lsinitrd: at the end of ls -l lines)
list_initrd() {
	case "$GEN" in
	initramfs-tools) lsinitramfs "/boot/initrd.img-$INITRD_REL" ;;
	dracut) lsinitrd "/boot/initrd.img-$INITRD_REL" ;;
	esac >"$1"
}
modre="(^| )(usr/)?lib/modules/$(sed 's/[.+]/\\&/g' <<<"$INITRD_REL")/updates/dkms/allocinfo_ext\.ko(\.[a-z]+)?$"
oursre="(^| )$(sed 's/[.+]/\\&/g' <<<"$OURS")$"
# check_in_initrd: the module and the script DKMS's refresh put there
check_in_initrd() {
	list_initrd "$TMP/initrd.txt" || return 1
	grep -E "$modre" "$TMP/initrd.txt" || { echo "no $modre"; return 1; }
	grep -E "$oursre" "$TMP/initrd.txt" || { echo "no $OURS"; return 1; }
}
# check_out_of_initrd: nothing of allocinfo_ext in it (nor, with dracut,
# allocinfo-ext in its list of dracut modules)
check_out_of_initrd() {
	list_initrd "$TMP/initrd.txt" || return 1
	! grep -E 'allocinfo[-_]ext' "$TMP/initrd.txt"
}

if [ -n "$INITRD_REL" ] && [ ! -e "/boot/initrd.img-$INITRD_REL" ]; then
	made_initrd=1
	pack -c >"$TMP/initrd.log" 2>&1 ||
		aie_die "$GEN: the first initramfs of $INITRD_REL failed: $(tail -n 20 "$TMP/initrd.log")"
fi
[ -z "$INITRD_REL" ] || list_initrd "$TMP/initrd.txt" ||
	aie_die "listing /boot/initrd.img-$INITRD_REL failed"

# check_off: with INITRAMFS=no, POST_INSTALL (run again, as DKMS runs it)
# says so and leaves INITRD_REL's initramfs as it was, and one packed then
# (by the kernel's hook, on an upgrade) has no allocinfo_ext.ko (dracut:
# nothing of allocinfo_ext; initramfs-tools copies the init-top script,
# which finds no module and does nothing)
check_off() {
	local sum
	sum=$(md5sum <"/boot/initrd.img-$INITRD_REL")
	wrote_default=1
	echo INITRAMFS=no >"$DEFAULT"
	(cd "$SRC" && tools/initramfs/dkms install "$INITRD_REL") >"$TMP/post-off.log" 2>&1 ||
		{ cat "$TMP/post-off.log"; return 1; }
	cat "$TMP/post-off.log"
	grep -qxF "allocinfo_ext: initramfs of $INITRD_REL: left alone (INITRAMFS=no)" \
		"$TMP/post-off.log" || return 1
	[ "$(md5sum <"/boot/initrd.img-$INITRD_REL")" = "$sum" ] ||
		{ echo "POST_INSTALL packed /boot/initrd.img-$INITRD_REL"; return 1; }
	pack || return 1
	case "$GEN" in
	initramfs-tools)
		list_initrd "$TMP/initrd.txt" && ! grep -E "$modre" "$TMP/initrd.txt" ;;
	dracut) check_out_of_initrd ;;
	esac
}

aie_check "dkms: $AIE_DKMS_ROOT: add $NAME/$VER from $SRC" "$TMP/add.log" add_source
for rel in "${RELS[@]}"; do
	aie_check "dkms: build for $rel" "$TMP/build.log" \
		dkms build -m "$NAME" -v "$VER" -k "$rel"
	aie_check "dkms: install for $rel" "$TMP/install.log" \
		dkms install -m "$NAME" -v "$VER" -k "$rel"
	aie_check "dkms: $rel: modinfo -k finds it in updates/dkms, vermagic $rel" \
		"$TMP/check.log" check_installed "$rel"
	aie_check "dkms: $rel: POST_INSTALL installed $WHERE" \
		"$TMP/hook.log" check_hook
	# the release dkms.conf gave POST_INSTALL, in what it said
	aie_check "dkms: $rel: POST_INSTALL ran for $rel" "$TMP/post.log" \
		grep -F "allocinfo_ext: initramfs of $rel: " "$TMP/install.log"
	if [ "$rel" = "$INITRD_REL" ]; then
		aie_check "dkms: $rel: POST_INSTALL's $GEN put allocinfo_ext.ko and $OURS in /boot/initrd.img-$rel" \
			"$TMP/initrd.log" check_in_initrd
		aie_check "dkms: $rel: INITRAMFS=no: POST_INSTALL packs nothing, $GEN leaves allocinfo_ext out" \
			"$TMP/off.log" check_off
		# back, for POST_REMOVE to take out
		rm -f "$DEFAULT"
		wrote_default=
		aie_check "dkms: $rel: without INITRAMFS=no, $GEN puts allocinfo_ext.ko and $OURS back" \
			"$TMP/initrd.log" eval 'pack && check_in_initrd'
	fi
done
[ -n "$INITRD_REL" ] ||
	aie_skip "dkms: $AIE_DKMS_ROOT: the module in an initramfs" \
		"no kernel image in the root (mkinitramfs needs its modules)"
aie_check "dkms: $AIE_DKMS_ROOT: remove --all" "$TMP/remove.log" \
	dkms remove -m "$NAME" -v "$VER" --all
aie_check "dkms: $AIE_DKMS_ROOT: nothing registered or found after remove" \
	"$TMP/removed.log" check_removed
aie_check "dkms: $AIE_DKMS_ROOT: POST_REMOVE took $WHERE away" \
	"$TMP/hook.log" check_no_hook
if [ -n "$INITRD_REL" ]; then
	aie_check "dkms: $INITRD_REL: POST_REMOVE's $GEN left nothing of allocinfo_ext in /boot/initrd.img-$INITRD_REL" \
		"$TMP/initrd.log" check_out_of_initrd
fi

# make install where dracut alone makes the initramfs: its recipe packs
# INITRD_REL's with dracut -f (update-initramfs is absent), which must
# then hold the module make install put in extra/ and the hook. The tool
# (install-tools) is left out: -o.
make_install() {
	made_install=1
	make -C "$TMP/tree" -o install-tools install \
		KDIR="/usr/src/linux-headers-$INITRD_REL" || return 1
	list_initrd "$TMP/initrd.txt" || return 1
	grep -E "${modre/updates\/dkms/extra}" "$TMP/initrd.txt" &&
		grep -E "$oursre" "$TMP/initrd.txt"
}
if [ "$GEN" = dracut ] && [ -n "$INITRD_REL" ]; then
	aie_check "dkms: $AIE_DKMS_ROOT: make install (no update-initramfs): dracut -f put extra/allocinfo_ext.ko and $OURS in /boot/initrd.img-$INITRD_REL" \
		"$TMP/make-install.log" make_install
fi
cleanup
snapshot >"$TMP/after"
if cmp -s "$TMP/before" "$TMP/after"; then
	aie_ok "dkms: $AIE_DKMS_ROOT: no trace left in /usr/src, /var/lib/dkms, /lib/modules, /etc/initramfs-tools, dracut's modules, /boot"
else
	aie_not_ok "dkms: $AIE_DKMS_ROOT: no trace left in /usr/src, /var/lib/dkms, /lib/modules, /etc/initramfs-tools, dracut's modules, /boot" \
		"$(diff "$TMP/before" "$TMP/after")"
fi
exit "$AIE_PKG_FAILED"
