#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dkms-test.sh - `make dkms-check`, and part of make check's host tests:
# the module through Debian's DKMS, as Documentation/admin-guide.rst
# tells an administrator, for Debian's 6.12 and 6.1 headers:
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
# Needs root; installs Debian's dkms package when it is missing. Does
# nothing (SKIP) when allocinfo-ext is registered with DKMS already.
# Prints TAP lines "ok - host: dkms: ..." and exits 1 when one failed.
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
if [ -e "$SRC" ] || [ -e "/var/lib/dkms/$NAME" ]; then
	aie_skip "dkms: add, build, install, remove" \
		"$NAME is registered with DKMS already; left alone"
	exit 0
fi

aie_apt_install dkms kmod
aie_debian_headers 6.12
RELS=("$AIE_KREL")
aie_debian_headers 6.1
RELS+=("$AIE_KREL")

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

aie_check "dkms: add $NAME/$VER from $SRC" "$TMP/add.log" add_source
for rel in "${RELS[@]}"; do
	aie_check "dkms: build for $rel" "$TMP/build.log" \
		dkms build -m "$NAME" -v "$VER" -k "$rel"
	aie_check "dkms: install for $rel" "$TMP/install.log" \
		dkms install -m "$NAME" -v "$VER" -k "$rel"
	aie_check "dkms: $rel: modinfo -k finds it in updates/dkms, vermagic $rel" \
		"$TMP/check.log" check_installed "$rel"
done
aie_check "dkms: remove --all" "$TMP/remove.log" \
	dkms remove -m "$NAME" -v "$VER" --all
aie_check "dkms: nothing registered or found after remove" \
	"$TMP/removed.log" check_removed
cleanup
snapshot >"$TMP/after"
if cmp -s "$TMP/before" "$TMP/after"; then
	aie_ok "dkms: no trace left in /usr/src, /var/lib/dkms, /lib/modules"
else
	aie_not_ok "dkms: no trace left in /usr/src, /var/lib/dkms, /lib/modules" \
		"$(diff "$TMP/before" "$TMP/after")"
fi
exit "$AIE_PKG_FAILED"
