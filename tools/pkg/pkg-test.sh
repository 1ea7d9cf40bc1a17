#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pkg-test.sh - `make deb-check`, and part of make check's host tests:
# the Debian packages (build-deb.sh, built once per tree) installed by
# apt as Documentation/admin-guide.rst tells an administrator, in a copy
# (aie_overlay_run: the shared root stays as it was) of each release's
# root, with the headers of that release's kernel of kernels.sh's table:
#
#   bullseye: 5.10, then 5.10's cloud flavour
#   bookworm: 6.1, then 6.1's cloud flavour
#   trixie: 7, then 7's cloud flavour
#
# The roots hold the headers of other kernels of the table too (6.12 and
# its flavours in bookworm's): their /lib/modules directories are taken
# out of the copy, so that the postinst builds for the first kernel
# alone, as on a host with one kernel. Then:
#
#   apt-get install ./allocinfo-ext-dkms_<v>_all.deb ./allocinfo-ext_<v>_amd64.deb
#     exits 0; dkms status says installed for the kernel; modinfo -k
#     finds the module in updates/dkms with the kernel's vermagic;
#     allocinfo-ext --version prints the package's version; the units,
#     udev rule, man page, recording rules, initramfs-tools hook and
#     init-top script and dracut module are in place, none copied to
#     /etc, and the export's timer is enabled;
#   apt-get install linux-headers-<cloud flavour>: DKMS's kernel hook
#     builds and installs the module for it too (a kernel upgrade);
#   apt-get purge allocinfo-ext allocinfo-ext-dkms: no file named
#     *allocinfo* is left in the root that was not there before the
#     install (module, units, hooks, DKMS's tree and source, systemd's
#     enablement state), and no modules.dep names the module.
#
# The copy reads through to the shared root: nothing may change that root
# while the test runs (make check runs dkms-test.sh before it, not beside
# it; another clone's dkms-test.sh in the same root makes this one fail).
#
# AIE_PKG_ROOTS (default "bullseye bookworm trixie"): the roots. Needs
# root (chroot, mount); SKIP otherwise. Prints TAP lines "ok - host: pkg:
# ..." and exits 1 when one failed. Logs: $AIE_BUILD/pkg-test/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ]; then
	aie_skip "pkg: apt install, DKMS, apt purge of the Debian packages" "not root"
	exit 0
fi

# --- inside a root's copy: AIE_PKG_K1, AIE_PKG_K2, AIE_PKG_DEBS set ---
if [ -n "${AIE_PKG_K1:-}" ]; then
	K1=$AIE_PKG_K1 K2=$AIE_PKG_K2 R=$AIE_PKG_REL LOG=$AIE_PKG_LOG
	VER=$AIE_PKG_VER
	export DEBIAN_FRONTEND=noninteractive
	for d in /lib/modules/*; do
		[ "${d##*/}" = "$K1" ] || rm -rf "$d"
	done
	if [ -z "$(find /var/lib/apt/aie-updated -mmin -60 2>/dev/null)" ]; then
		apt-get update -qq >"$LOG/update.log" 2>&1 ||
			aie_die "apt-get update in the $R copy failed: $(tail -n 5 "$LOG/update.log")"
	fi
	# named *allocinfo* before: what the root held already (not this test's)
	named() {
		# the tree, cache and build directory are mounts of their own
		find / -xdev \( -path /usr/src/linux-headers-\* -prune \) -o \
			-name '*allocinfo*' -print | sort
	}
	named >"$LOG/named-before.txt"
	cd "$AIE_PKG_DEBS"
	aie_check "pkg: $R: apt-get install ./allocinfo-ext-dkms_${VER}_all.deb ./allocinfo-ext_${VER}_amd64.deb exits 0" \
		"$LOG/install.log" apt-get install -y -q --no-install-recommends \
		"./allocinfo-ext-dkms_${VER}_all.deb" "./allocinfo-ext_${VER}_amd64.deb"
	cd /

	# built KREL: dkms status says installed for KREL, and modinfo -k
	# finds the module there with KREL's vermagic
	built() {
		local s f v
		s=$(dkms status -m allocinfo-ext -k "$1")
		f=$(modinfo -k "$1" -F filename allocinfo_ext)
		v=$(modinfo -k "$1" -F vermagic allocinfo_ext)
		echo "dkms status: $s"
		echo "module: $f, vermagic: $v"
		grep -q ': installed' <<<"$s" &&
			[[ "$f" == /lib/modules/$1/updates/dkms/allocinfo_ext.ko* ]] &&
			[ "${v%% *}" = "$1" ]
	}
	aie_check "pkg: $R: dkms status: installed for $K1; modinfo -k $K1 finds it in updates/dkms, vermagic $K1" \
		"$LOG/k1.log" built "$K1"
	aie_check "pkg: $R: allocinfo-ext --version prints allocinfo-ext ${VER%-*}" \
		"$LOG/version.log" sh -c "allocinfo-ext --version | tee /dev/stderr | grep -qx 'allocinfo-ext ${VER%-*}'"
	in_place() {
		local f rc=0
		for f in /lib/systemd/system/allocinfo-ext-export.service \
			/lib/systemd/system/allocinfo-ext-export.timer \
			/lib/systemd/system/allocinfo-ext-annotate.service \
			/lib/systemd/system/allocinfo-ext-annotate.timer \
			/lib/udev/rules.d/60-allocinfo-ext.rules \
			/usr/share/man/man1/allocinfo-ext.1.gz \
			/usr/share/allocinfo-ext/prometheus/allocinfo-ext.rules.yml \
			/usr/share/initramfs-tools/hooks/allocinfo_ext \
			/usr/share/initramfs-tools/scripts/init-top/allocinfo_ext \
			/usr/lib/dracut/modules.d/90allocinfo-ext/module-setup.sh \
			/etc/systemd/system/timers.target.wants/allocinfo-ext-export.timer; do
			[ -e "$f" ] || { echo "missing: $f"; rc=1; }
		done
		grep -q '^ExecStart=/usr/bin/allocinfo-ext export ' \
			/lib/systemd/system/allocinfo-ext-export.service ||
			{ echo "export.service does not run /usr/bin/allocinfo-ext"; rc=1; }
		for f in /etc/initramfs-tools/hooks/allocinfo_ext \
			/etc/initramfs-tools/scripts/init-top/allocinfo_ext; do
			[ ! -e "$f" ] || { echo "copied: $f"; rc=1; }
		done
		return $rc
	}
	aie_check "pkg: $R: units, udev rule, man page, rules, initramfs hook, dracut module in place; export timer enabled" \
		"$LOG/files.log" in_place

	aie_check "pkg: $R: apt-get install linux-headers-$K2 exits 0" \
		"$LOG/k2-install.log" env INITRD=No apt-get install -y -q --no-install-recommends \
		"linux-headers-$K2"
	aie_check "pkg: $R: DKMS's kernel hook built it for $K2: dkms status installed, vermagic $K2" \
		"$LOG/k2.log" built "$K2"

	aie_check "pkg: $R: apt-get purge allocinfo-ext allocinfo-ext-dkms exits 0" \
		"$LOG/purge.log" apt-get purge -y -q allocinfo-ext allocinfo-ext-dkms
	left() {
		local rc=0
		named | comm -13 "$LOG/named-before.txt" - | grep . && rc=1
		grep -l allocinfo_ext /lib/modules/*/modules.dep && rc=1
		dpkg-query -W 'allocinfo-ext*' 2>/dev/null | grep . && rc=1
		return $rc
	}
	aie_check "pkg: $R: after purge, no *allocinfo* file in the root (module, units, hooks, DKMS tree), no modules.dep entry, no package" \
		"$LOG/left.log" left
	exit "$AIE_PKG_FAILED"
fi

# --- on the host ---
start=$(date +%s)
"$AIE_TOP/tools/pkg/build-deb.sh" >&2
DEBS=${AIE_DEB_OUT:-$AIE_BUILD/deb}
VER=$(dpkg-deb -f "$DEBS"/allocinfo-ext_*_amd64.deb Version)
built=$(date +%s)
lint=$(grep -E '^[EW]:' "$DEBS/lintian.txt" || true)
if [ -z "$lint" ]; then
	aie_ok "pkg: lintian: no error or warning on the two packages"
else
	aie_not_ok "pkg: lintian: no error or warning on the two packages" "$lint"
fi

rc=0
for name in 5.10 6.1 7; do
	aie_kernel_name "$name"
	rel=$AIE_ROOT_REL k1=$AIE_KREL
	[[ " ${AIE_PKG_ROOTS:-bullseye bookworm trixie} " == *" $rel "* ]] || continue
	t=$(date +%s)
	aie_root "$rel"
	aie_root_apt "$rel" "linux-headers-$k1" initramfs-tools
	k2=${k1%-amd64}-cloud-amd64
	if aie_root_run "$rel" dpkg-query -W "linux-headers-$k2" >/dev/null 2>&1; then
		aie_not_ok "pkg: $rel: linux-headers-$k2 is not in the root before the test" \
			"its postinst would not run: remove it from $AIE_ROOTS/$rel"
		rc=1
		continue
	fi
	dir=$AIE_BUILD/pkg-test/$rel
	rm -rf "$dir" && mkdir -p "$dir/log"
	aie_overlay_run "$rel" "$dir/root" env AIE_PKG_K1="$k1" AIE_PKG_K2="$k2" \
		AIE_PKG_REL="$rel" AIE_PKG_LOG="$dir/log" AIE_PKG_DEBS="$DEBS" \
		AIE_PKG_VER="$VER" bash "$AIE_TOP/tools/pkg/pkg-test.sh" || rc=1
	rm -rf "$dir/root"
	aie_log "pkg: $rel: $(( $(date +%s) - t )) s"
done
aie_log "pkg: packages $(( built - start )) s, all $(( $(date +%s) - start )) s"
[ "$AIE_PKG_FAILED" = 0 ] || rc=1
exit "$rc"
