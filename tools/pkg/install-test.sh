#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install-test.sh - make install, on a clean copy of the tree, for
# Debian's 6.12 and 6.1 headers:
#
# - make install DESTDIR=D PREFIX=/usr KDIR=<6.12> installs exactly the
#   module in D/lib/modules/<release>/extra (INSTALL_MOD_PATH defaults to
#   DESTDIR), the tool in D/usr/bin, its man page, the export's and
#   annotate's systemd services and timers in D/usr/lib/systemd/system
#   (the services running /usr/bin/allocinfo-ext), annotate's udev rule in
#   D/usr/lib/udev/rules.d, the Prometheus rules, the initramfs-tools
#   hook and init-top script in D/usr/share/initramfs-tools (and, where
#   the host has dracut, its module in D/usr/lib/dracut/modules.d), and
#   nothing else;
# - make install-boot DESTDIR=B (PREFIX=/usr/local) installs exactly the
#   hook and the script in B/etc/initramfs-tools, executable, each a
#   shell script that sh -n accepts and that prints no prerequisites;
# - make install-module INSTALL_MOD_PATH=M KDIR=<6.1> installs exactly the
#   module in M/lib/modules/<release>/extra;
# - each installed module has the vermagic of its kernel, and modinfo
#   gives a non-empty description for every parameter it has (max_sites,
#   max_objects and hooks among them).
#
# The module's name ends as the kernel's modules_install names it: .ko,
# or .ko.xz for Debian's 6.12 (CONFIG_MODULE_COMPRESS_ALL, XZ).
# Prints TAP lines "ok - host: install: ..." and exits 1 when one failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# check_params KO: every parameter (a parmtype line) has a description
# (text in its parm line, before the " (<type>)" modinfo appends), and
# the three known ones are there.
check_params() {
	local ko=$1 types descs p
	types=$(modinfo -F parmtype "$ko" | cut -d: -f1 | sort)
	descs=$(modinfo -F parm "$ko" | sed -E 's/ \([a-z0-9_]+\)$//' |
		sed -n 's/^\([a-z_]*\):[[:space:]]*[^[:space:]].*/\1/p' | sort)
	for p in hooks max_objects max_sites; do
		grep -qx "$p" <<<"$types" || { echo "no parameter $p"; return 1; }
	done
	if [ "$types" != "$descs" ]; then
		echo "parameters: $(echo $types); described: $(echo $descs)"
		return 1
	fi
}

# check_vermagic KO RELEASE
check_vermagic() {
	local vm
	vm=$(modinfo -F vermagic "$1")
	[ "${vm%% *}" = "$2" ] || { echo "vermagic '$vm', want '$2 ...'"; return 1; }
}

# check_files DIR WANT...: the files under DIR are exactly WANT (relative).
check_files() {
	local dir=$1 got want
	shift
	got=$(cd "$dir" && find . -type f | sed 's|^\./||' | sort)
	want=$(printf '%s\n' "$@" | sort)
	[ "$got" = "$want" ] || { echo "files: $got"; echo "want: $want"; return 1; }
}

src=$TMP/src
aie_stage_tree "$src"
# install-boot adds the dracut module where the host has dracut
dracut=()
if [ -d /usr/lib/dracut/modules.d ]; then
	dracut=(usr/lib/dracut/modules.d/90allocinfo-ext/module-setup.sh
		usr/lib/dracut/modules.d/90allocinfo-ext/allocinfo-ext.sh)
fi

# Debian's 6.12: module and tool, through DESTDIR.
aie_debian_headers 6.12
rel=$AIE_KREL
kdir=/lib/modules/$rel/build
ko=lib/modules/$rel/extra/allocinfo_ext$(aie_module_suffix "$kdir")
d=$TMP/destdir
if make -s -C "$src" -j"$(nproc)" install DESTDIR="$d" PREFIX=/usr KDIR="$kdir" \
	>"$TMP/make.log" 2>&1; then
	aie_ok "install: make install DESTDIR= PREFIX= KDIR=$rel exits 0"
else
	aie_not_ok "install: make install DESTDIR= PREFIX= KDIR=$rel exits 0" \
		"$(tail -n 30 "$TMP/make.log")"
fi
aie_check "install: DESTDIR holds exactly $ko, the tool, its man page, units, rules, initramfs files" \
	"$TMP/files.log" check_files "$d" "$ko" usr/bin/allocinfo-ext \
	usr/share/man/man1/allocinfo-ext.1 \
	usr/lib/systemd/system/allocinfo-ext-export.service \
	usr/lib/systemd/system/allocinfo-ext-export.timer \
	usr/lib/systemd/system/allocinfo-ext-annotate.service \
	usr/lib/systemd/system/allocinfo-ext-annotate.timer \
	usr/lib/udev/rules.d/60-allocinfo-ext.rules \
	usr/share/allocinfo-ext/prometheus/allocinfo-ext.rules.yml \
	usr/share/initramfs-tools/hooks/allocinfo_ext \
	usr/share/initramfs-tools/scripts/init-top/allocinfo_ext "${dracut[@]}"
# check_exec: both services run the installed tool.
check_exec() {
	local u=$d/usr/lib/systemd/system
	grep -q '^ExecStart=/usr/bin/allocinfo-ext export ' "$u/allocinfo-ext-export.service" &&
		grep -qx 'ExecStart=/usr/bin/allocinfo-ext annotate' \
			"$u/allocinfo-ext-annotate.service" || { grep ExecStart "$u"/*; return 1; }
}
aie_check "install: the services run /usr/bin/allocinfo-ext" "$TMP/unit.log" check_exec
aie_check "install: vermagic of the installed module is $rel" \
	"$TMP/vermagic.log" check_vermagic "$d/$ko" "$rel"
aie_check "install: modinfo describes every parameter ($rel)" \
	"$TMP/params.log" check_params "$d/$ko"

# Debian's 6.1: the module alone, through INSTALL_MOD_PATH.
aie_debian_headers 6.1
rel=$AIE_KREL
kdir=/lib/modules/$rel/build
ko=lib/modules/$rel/extra/allocinfo_ext$(aie_module_suffix "$kdir")
m=$TMP/modpath
make -s -C "$src" clean KDIR="$kdir" >/dev/null 2>&1 || true
if make -s -C "$src" -j"$(nproc)" install-module INSTALL_MOD_PATH="$m" \
	KDIR="$kdir" >"$TMP/make.log" 2>&1; then
	aie_ok "install: make install-module INSTALL_MOD_PATH= KDIR=$rel exits 0"
else
	aie_not_ok "install: make install-module INSTALL_MOD_PATH= KDIR=$rel exits 0" \
		"$(tail -n 30 "$TMP/make.log")"
fi
aie_check "install: INSTALL_MOD_PATH holds exactly $ko" "$TMP/files.log" \
	check_files "$m" "$ko"
aie_check "install: vermagic of the installed module is $rel" \
	"$TMP/vermagic.log" check_vermagic "$m/$ko" "$rel"
aie_check "install: modinfo describes every parameter ($rel)" \
	"$TMP/params.log" check_params "$m/$ko"

# The initramfs part alone, for an admin's install (PREFIX=/usr/local).
# check_boot_files DIR: both files executable, valid sh, no prerequisites.
check_boot_files() {
	local f
	for f in "$1/hooks/allocinfo_ext" "$1/scripts/init-top/allocinfo_ext"; do
		[ -x "$f" ] || { echo "$f: not executable"; return 1; }
		sh -n "$f" || { echo "$f: sh -n fails"; return 1; }
		[ -z "$(sh "$f" prereqs)" ] || { echo "$f prereqs: $(sh "$f" prereqs)"; return 1; }
	done
}
b=$TMP/boot
if make -s -C "$src" install-boot DESTDIR="$b" >"$TMP/make.log" 2>&1; then
	aie_ok "install: make install-boot DESTDIR= exits 0"
else
	aie_not_ok "install: make install-boot DESTDIR= exits 0" "$(tail -n 30 "$TMP/make.log")"
fi
aie_check "install: install-boot: DESTDIR holds exactly the hook and init-top script in etc/initramfs-tools" \
	"$TMP/files.log" check_files "$b" etc/initramfs-tools/hooks/allocinfo_ext \
	etc/initramfs-tools/scripts/init-top/allocinfo_ext "${dracut[@]}"
aie_check "install: install-boot: hook and script are executable sh with no prerequisites" \
	"$TMP/boot.log" check_boot_files "$b/etc/initramfs-tools"

exit "$AIE_PKG_FAILED"
