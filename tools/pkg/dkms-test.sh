#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dkms-test.sh - `make dkms-check`, and part of make check's host tests:
# the module through each Debian release's own DKMS, in that release's
# root (tools/vm/kernels.sh), for every kernel of the matrix it ships:
#
#   bullseye root: 5.10     bookworm root: 6.1, 6.12, 6.12-rt, 6.12-cloud
#   trixie root: 7
#
# In each root, as Documentation/admin-guide.rst tells an administrator:
#
#   copy dkms.conf Kbuild Makefile include module to /usr/src/<name>-<ver>
#   dkms add; then for each kernel: dkms build -k, dkms install -k
#   dkms remove --all
#
# and checks that each installed module has its kernel's vermagic and is
# the one modinfo -k finds (depmod ran), that nothing is left registered,
# and that no trace is left: /usr/src, /var/lib/dkms and the kernels'
# /lib/modules/<release> (outside kernel/) as they were, file for file
# (depmod's indexes by checksum). What DKMS creates on its way (a MOK
# signing key in /var/lib/dkms, depmod's indexes of a kernel that had
# none) is removed when it was not there before.
#
# Needs root (chroot); SKIP otherwise. In a root, does nothing (SKIP)
# when allocinfo-ext is registered with DKMS already. Run by itself it
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
			aie_root "$AIE_ROOT_REL"
			aie_root_apt "$AIE_ROOT_REL" "linux-headers-$AIE_KREL"
			rels+=("$AIE_KREL")
		done
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

snapshot >"$TMP/before"
trap 'cleanup; rm -rf "$TMP"' EXIT

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
		(cd "$stage" && cp -r dkms.conf Kbuild Makefile include module "$SRC/") &&
		dkms add -m "$NAME" -v "$VER"
}

aie_check "dkms: $AIE_DKMS_ROOT: add $NAME/$VER from $SRC" "$TMP/add.log" add_source
for rel in "${RELS[@]}"; do
	aie_check "dkms: build for $rel" "$TMP/build.log" \
		dkms build -m "$NAME" -v "$VER" -k "$rel"
	aie_check "dkms: install for $rel" "$TMP/install.log" \
		dkms install -m "$NAME" -v "$VER" -k "$rel"
	aie_check "dkms: $rel: modinfo -k finds it in updates/dkms, vermagic $rel" \
		"$TMP/check.log" check_installed "$rel"
done
aie_check "dkms: $AIE_DKMS_ROOT: remove --all" "$TMP/remove.log" \
	dkms remove -m "$NAME" -v "$VER" --all
aie_check "dkms: $AIE_DKMS_ROOT: nothing registered or found after remove" \
	"$TMP/removed.log" check_removed
cleanup
snapshot >"$TMP/after"
if cmp -s "$TMP/before" "$TMP/after"; then
	aie_ok "dkms: $AIE_DKMS_ROOT: no trace left in /usr/src, /var/lib/dkms, /lib/modules"
else
	aie_not_ok "dkms: $AIE_DKMS_ROOT: no trace left in /usr/src, /var/lib/dkms, /lib/modules" \
		"$(diff "$TMP/before" "$TMP/after")"
fi
exit "$AIE_PKG_FAILED"
