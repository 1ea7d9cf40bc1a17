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
#   copy dkms.conf Kbuild Makefile include module tools/initramfs to
#   /usr/src/<name>-<ver>
#   dkms add; then for each kernel: dkms build -k, dkms install -k
#   dkms remove --all
#
# and checks that each installed module has its kernel's vermagic and is
# the one modinfo -k finds (depmod ran), that POST_INSTALL installed the
# initramfs-tools hook and init-top script and POST_REMOVE took them
# away, that nothing is left registered, and that no trace is left:
# /usr/src, /var/lib/dkms, the kernels' /lib/modules/<release> (outside
# kernel/), /etc/initramfs-tools, /boot and /var/lib/initramfs-tools as
# they were, file for file (depmod's indexes by checksum). What DKMS creates on its way (a MOK signing key in
# /var/lib/dkms, depmod's indexes of a kernel that had none) is removed
# when it was not there before.
#
# The first kernel whose image is in the root (bookworm's 6.12; the
# bullseye and trixie roots hold headers only, and mkinitramfs needs the
# image's modules and config: SKIP there) gets an initramfs before dkms
# add, as its postinst would have made it (removed at the end when it
# was not there): after dkms install lsinitramfs must list allocinfo_ext.ko
# and scripts/init-top/allocinfo_ext in it, after dkms remove neither.
#
# AIE_DKMS_ROOTS (default "bullseye bookworm trixie"): the roots to go
# through. Needs root (chroot); SKIP otherwise. In a root, does nothing
# (SKIP) when allocinfo-ext is registered with DKMS already. Run by itself it
# goes through the roots; with AIE_DKMS_RELS (the kernel releases) set,
# it is the part that runs inside one root. Prints TAP lines "ok - host:
# dkms: ..." and exits 1 when one failed.
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
	exit "$rc"
fi
if [ -e "$SRC" ] || [ -e "/var/lib/dkms/$NAME" ]; then
	aie_skip "dkms: add, build, install, remove" \
		"$NAME is registered with DKMS already; left alone"
	exit 0
fi

read -r -a RELS <<<"$AIE_DKMS_RELS"

TMP=$(mktemp -d)
had_key=$([ -e "$MOK_KEY" ] && echo 1 || true)
had_cert=$([ -e "$MOK_CERT" ] && echo 1 || true)

# What DKMS may touch, listed, with checksums of depmod's indexes.
snapshot() {
	local rel
	find /usr/src -maxdepth 1 | sort
	find /var/lib/dkms 2>/dev/null | sort
	# (a root without initramfs-tools' state directory: find says so)
	find /etc/initramfs-tools /boot /var/lib/initramfs-tools 2>/dev/null | sort || true
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

# The initramfs made in the root holds what the hooks add, ours among
# them, and no drivers (MODULES=list; Debian's default, most, packs every
# driver): each of the three update-initramfs takes seconds, not a minute
# under make check. The file is there for both snapshots and goes at exit.
TEST_CONF=/etc/initramfs-tools/conf.d/zz-aie-dkms-test
if [ -n "$INITRD_REL" ] && [ -d /etc/initramfs-tools/conf.d ]; then
	echo MODULES=list >"$TEST_CONF"
fi
snapshot >"$TMP/before"
trap 'cleanup; rm -rf "$TMP" "$TEST_CONF"' EXIT

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
			module tools/initramfs "$SRC/") &&
		dkms add -m "$NAME" -v "$VER"
}

# check_hook: POST_INSTALL installed the hook and the script,
# executable, as shipped
check_hook() {
	[ -x "$HOOK" ] || { echo "$HOOK: missing or not executable"; return 1; }
	[ -x "$SCRIPT" ] || { echo "$SCRIPT: missing or not executable"; return 1; }
	cmp "$AIE_TOP/tools/initramfs/hook" "$HOOK" &&
		cmp "$AIE_TOP/tools/initramfs/init-top" "$SCRIPT"
}

# list_initrd FILE: lsinitramfs of INITRD_REL's initramfs into FILE
list_initrd() {
	lsinitramfs "/boot/initrd.img-$INITRD_REL" >"$1"
}
modre="^(usr/)?lib/modules/$(sed 's/[.+]/\\&/g' <<<"$INITRD_REL")/updates/dkms/allocinfo_ext\.ko"
# check_in_initrd: the module and the script DKMS's refresh put there
check_in_initrd() {
	list_initrd "$TMP/initrd.txt" || return 1
	grep -E "$modre" "$TMP/initrd.txt" || { echo "no $modre"; return 1; }
	grep -x scripts/init-top/allocinfo_ext "$TMP/initrd.txt" ||
		{ echo "no scripts/init-top/allocinfo_ext"; return 1; }
}
# check_out_of_initrd: after remove, nothing of allocinfo_ext in it
check_out_of_initrd() {
	list_initrd "$TMP/initrd.txt" || return 1
	! grep allocinfo_ext "$TMP/initrd.txt"
}

if [ -n "$INITRD_REL" ] && [ ! -e "/boot/initrd.img-$INITRD_REL" ]; then
	made_initrd=1
	update-initramfs -c -k "$INITRD_REL" >"$TMP/initrd.log" 2>&1 ||
		aie_die "update-initramfs -c -k $INITRD_REL failed: $(tail -n 20 "$TMP/initrd.log")"
fi
[ -z "$INITRD_REL" ] || list_initrd "$TMP/initrd.txt" ||
	aie_die "lsinitramfs /boot/initrd.img-$INITRD_REL failed"

aie_check "dkms: $AIE_DKMS_ROOT: add $NAME/$VER from $SRC" "$TMP/add.log" add_source
for rel in "${RELS[@]}"; do
	aie_check "dkms: build for $rel" "$TMP/build.log" \
		dkms build -m "$NAME" -v "$VER" -k "$rel"
	aie_check "dkms: install for $rel" "$TMP/install.log" \
		dkms install -m "$NAME" -v "$VER" -k "$rel"
	aie_check "dkms: $rel: modinfo -k finds it in updates/dkms, vermagic $rel" \
		"$TMP/check.log" check_installed "$rel"
	aie_check "dkms: $rel: POST_INSTALL installed hooks/allocinfo_ext and scripts/init-top/allocinfo_ext in /etc/initramfs-tools" \
		"$TMP/hook.log" check_hook
	# the release dkms.conf gave POST_INSTALL, in what it said
	aie_check "dkms: $rel: POST_INSTALL ran for $rel" "$TMP/post.log" \
		grep -F "allocinfo_ext: initramfs of $rel: " "$TMP/install.log"
	if [ "$rel" = "$INITRD_REL" ]; then
		aie_check "dkms: $rel: POST_INSTALL's update-initramfs put allocinfo_ext.ko and scripts/init-top/allocinfo_ext in /boot/initrd.img-$rel" \
			"$TMP/initrd.log" check_in_initrd
	fi
done
[ -n "$INITRD_REL" ] ||
	aie_skip "dkms: $AIE_DKMS_ROOT: the module in an initramfs" \
		"no kernel image in the root (mkinitramfs needs its modules)"
aie_check "dkms: $AIE_DKMS_ROOT: remove --all" "$TMP/remove.log" \
	dkms remove -m "$NAME" -v "$VER" --all
aie_check "dkms: $AIE_DKMS_ROOT: nothing registered or found after remove" \
	"$TMP/removed.log" check_removed
if [ -e "$HOOK" ] || [ -e "$SCRIPT" ]; then
	aie_not_ok "dkms: $AIE_DKMS_ROOT: POST_REMOVE took the hook and the init-top script away" \
		"$(ls -l "$HOOK" "$SCRIPT" 2>&1)"
else
	aie_ok "dkms: $AIE_DKMS_ROOT: POST_REMOVE took the hook and the init-top script away"
fi
if [ -n "$INITRD_REL" ]; then
	aie_check "dkms: $INITRD_REL: POST_REMOVE's update-initramfs left nothing of allocinfo_ext in /boot/initrd.img-$INITRD_REL" \
		"$TMP/initrd.log" check_out_of_initrd
fi
cleanup
snapshot >"$TMP/after"
if cmp -s "$TMP/before" "$TMP/after"; then
	aie_ok "dkms: $AIE_DKMS_ROOT: no trace left in /usr/src, /var/lib/dkms, /lib/modules, /etc/initramfs-tools, /boot"
else
	aie_not_ok "dkms: $AIE_DKMS_ROOT: no trace left in /usr/src, /var/lib/dkms, /lib/modules, /etc/initramfs-tools, /boot" \
		"$(diff "$TMP/before" "$TMP/after")"
fi
exit "$AIE_PKG_FAILED"
