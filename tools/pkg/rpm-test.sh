#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rpm-test.sh - part of make check's host tests: tools/pkg/allocinfo-ext.spec
# built by Debian's rpmbuild (package rpm, installed through the project's
# apt, lib.sh) from a tarball of a clean copy of the tree, and the two
# packages checked as an administrator's rpm would list them:
#
# - allocinfo-ext-dkms is noarch, requires dkms, and holds exactly what
#   dkms.conf builds from (dkms.conf Kbuild Makefile include module
#   tools/initramfs tools/dracut of the tree) under
#   /usr/src/allocinfo-ext-<ver>, file for file and directory for
#   directory; its %post adds that version to DKMS with --rpm_safe_upgrade
#   and installs it, its %preun removes it from every kernel with
#   --rpm_safe_upgrade;
# - allocinfo-ext holds exactly the tool in /usr/bin, its man page, the
#   export's and annotate's services and timers in /usr/lib/systemd/system
#   (the services running /usr/bin/allocinfo-ext), annotate's udev rule in
#   /usr/lib/udev/rules.d and the Prometheus rules; its %post presets both
#   timers, its %preun disables them on erase, its %postun reloads;
# - %prep stops when dkms.conf's PACKAGE_VERSION is not the spec's Version.
#
# Debian has no systemd-rpm-macros: %_unitdir, %_udevrulesdir and the
# %systemd_* scriptlet macros are given here, with the values and the
# shape Fedora's have. Installing the packages on Fedora or RHEL cannot be
# tested here (Documentation/admin-guide.rst says so).
# Needs root to install rpm; SKIP otherwise when rpmbuild is missing.
# Prints TAP lines "ok - host: rpm: ..." and exits 1 when one failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SPEC=$AIE_TOP/tools/pkg/allocinfo-ext.spec
CONF=$AIE_TOP/dkms.conf
NAME=allocinfo-ext
VER=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$CONF")
[ -n "$VER" ] || aie_die "$CONF: no PACKAGE_VERSION"
SRC=/usr/src/$NAME-$VER
UNITS=/usr/lib/systemd/system

if ! command -v rpmbuild >/dev/null; then
	if [ "$(id -u)" != 0 ]; then
		aie_skip "rpm: rpmbuild of tools/pkg/allocinfo-ext.spec" \
			"not root, and no rpmbuild"
		exit 0
	fi
	aie_host_apt_install rpm
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
top=$TMP/rpmbuild
mkdir -p "$top/SOURCES"
cat >"$TMP/macros" <<'EOF'
%_unitdir /usr/lib/systemd/system
%_udevrulesdir /usr/lib/udev/rules.d
%systemd_requires %{nil}
%systemd_post() if [ $1 -eq 1 ]; then systemctl --no-reload preset %{?*} >/dev/null 2>&1 || :; fi
%systemd_preun() if [ $1 -eq 0 ]; then systemctl --no-reload disable --now %{?*} >/dev/null 2>&1 || :; fi
%systemd_postun() if [ $1 -ge 1 ]; then systemctl daemon-reload >/dev/null 2>&1 || :; fi
EOF

# rpmb ARGS...: rpmbuild in $top, with the stand-ins for Fedora's macros;
# --nodeps, as Debian's rpm database knows none of BuildRequires.
rpmb() {
	rpmbuild --load "$TMP/macros" --define "_topdir $top" --nodeps "$@"
}

src=$TMP/$NAME-$VER
aie_stage_tree "$src"
tar czf "$top/SOURCES/$NAME-$VER.tar.gz" -C "$TMP" "$NAME-$VER"
aie_check "rpm: rpmbuild -ba tools/pkg/allocinfo-ext.spec exits 0" \
	"$TMP/build.log" rpmb -ba "$SPEC"
tool=$(ls "$top"/RPMS/*/"$NAME-$VER"-*.rpm 2>/dev/null | grep -v -e -dkms- -e -debug || true)
dkms=$(ls "$top"/RPMS/noarch/"$NAME-dkms-$VER"-*.noarch.rpm 2>/dev/null || true)
if [ -z "$tool" ] || [ -z "$dkms" ]; then
	aie_not_ok "rpm: the tool's and the noarch dkms package are built" \
		"$(cd "$top" && find RPMS SRPMS -type f)"
	exit 1
fi
aie_ok "rpm: the tool's and the noarch dkms package are built"

# check_list RPM WANT...: rpm -qlp lists exactly WANT, besides the
# build-id links of an ELF file (/usr/lib/.build-id, rpm's own), with the
# man page as the build compressed it or not (Fedora's brp-compress
# gzips it, Debian's rpm has none).
check_list() {
	local rpm=$1 got want
	shift
	got=$(rpm -qlp "$rpm" | grep -v '^/usr/lib/\.build-id\(/\|$\)' |
		sed -E 's#^(/usr/share/man/man1/allocinfo-ext\.1)(\.gz|\.xz)?$#\1#' | sort)
	want=$(printf '%s\n' "$@" | sort)
	[ "$got" = "$want" ] || { diff <(echo "$want") <(echo "$got"); return 1; }
}

# What dkms.conf's tree is: every file and directory the spec copies.
mapfile -t tree < <(cd "$src" && find dkms.conf Kbuild Makefile include module \
	tools/initramfs tools/dracut | sed "s|^|$SRC/|")
aie_check "rpm: $NAME-dkms holds exactly dkms.conf's tree in $SRC (${#tree[@]} paths)" \
	"$TMP/dkms-list.log" check_list "$dkms" "$SRC" "$SRC/tools" "${tree[@]}"

# check_dkms_meta: noarch, requires dkms.
check_dkms_meta() {
	local arch
	arch=$(rpm -qp --qf '%{ARCH}' "$dkms")
	[ "$arch" = noarch ] || { echo "arch $arch"; return 1; }
	rpm -qp --requires "$dkms" | grep -qx dkms || { rpm -qp --requires "$dkms"; return 1; }
}
aie_check "rpm: $NAME-dkms is noarch and requires dkms" "$TMP/dkms-meta.log" check_dkms_meta

# scriptlet RPM WHICH: the body of one scriptlet (postinstall,
# preuninstall, postuninstall) as rpm -qp --scripts prints it.
scriptlet() {
	rpm -qp --scripts "$1" | awk -v w="$2" '
		/^[a-z]+ scriptlet/ { on = ($1 == w); next }
		on'
}

# check_dkms_scripts: %post adds and installs this version, %preun
# removes it from every kernel, both safe across an upgrade.
check_dkms_scripts() {
	local post preun
	post=$(scriptlet "$dkms" postinstall)
	preun=$(scriptlet "$dkms" preuninstall)
	grep -qE "^dkms add -m $NAME -v $VER( -q)? --rpm_safe_upgrade" <<<"$post" &&
		grep -qE "^dkms install -m $NAME -v $VER" <<<"$post" &&
		grep -qE "^dkms remove -m $NAME -v $VER .*--all --rpm_safe_upgrade" <<<"$preun" ||
		{ rpm -qp --scripts "$dkms"; return 1; }
}
aie_check "rpm: $NAME-dkms's %post adds and installs $VER, %preun removes it (--rpm_safe_upgrade)" \
	"$TMP/dkms-scripts.log" check_dkms_scripts

aie_check "rpm: $NAME holds exactly the tool, its man page, units, udev rule, Prometheus rules" \
	"$TMP/tool-list.log" check_list "$tool" /usr/bin/allocinfo-ext \
	/usr/share/man/man1/allocinfo-ext.1 \
	"$UNITS/allocinfo-ext-export.service" "$UNITS/allocinfo-ext-export.timer" \
	"$UNITS/allocinfo-ext-annotate.service" "$UNITS/allocinfo-ext-annotate.timer" \
	/usr/lib/udev/rules.d/60-allocinfo-ext.rules /usr/share/allocinfo-ext \
	/usr/share/allocinfo-ext/prometheus \
	/usr/share/allocinfo-ext/prometheus/allocinfo-ext.rules.yml

# check_tool_exec: both services in the package run /usr/bin/allocinfo-ext,
# and the packaged tool runs.
check_tool_exec() {
	local x=$TMP/tool-root
	mkdir -p "$x"
	(cd "$x" && rpm2cpio "$tool" | cpio -idm --quiet) || return 1
	grep -q '^ExecStart=/usr/bin/allocinfo-ext export ' \
		"$x$UNITS/allocinfo-ext-export.service" &&
		grep -qx 'ExecStart=/usr/bin/allocinfo-ext annotate' \
			"$x$UNITS/allocinfo-ext-annotate.service" ||
		{ grep ExecStart "$x$UNITS"/*; return 1; }
	"$x/usr/bin/allocinfo-ext" --help | grep -q '^Usage: allocinfo-ext' ||
		{ "$x/usr/bin/allocinfo-ext" --help | head; return 1; }
}
aie_check "rpm: $NAME's services run /usr/bin/allocinfo-ext, which runs" \
	"$TMP/tool-exec.log" check_tool_exec

# check_tool_scripts: the timers preset on install, disabled on erase,
# systemd reloaded after; no macro left unexpanded.
check_tool_scripts() {
	local all post preun postun t
	all=$(rpm -qp --scripts "$tool")
	post=$(scriptlet "$tool" postinstall)
	preun=$(scriptlet "$tool" preuninstall)
	postun=$(scriptlet "$tool" postuninstall)
	for t in allocinfo-ext-export.timer allocinfo-ext-annotate.timer; do
		grep -q "systemctl .*preset .*$t" <<<"$post" &&
			grep -q "systemctl .*disable .*$t" <<<"$preun" ||
			{ echo "$all"; return 1; }
	done
	grep -q 'systemctl daemon-reload' <<<"$postun" &&
		! grep -q '%' <<<"$all" || { echo "$all"; return 1; }
}
aie_check "rpm: $NAME's scriptlets preset, disable and reload the timers" \
	"$TMP/tool-scripts.log" check_tool_scripts

# %prep refuses a tree whose dkms.conf names another version.
sed -i 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="0.0"/' "$src/dkms.conf"
tar czf "$top/SOURCES/$NAME-$VER.tar.gz" -C "$TMP" "$NAME-$VER"
if rpmb -bp "$SPEC" >"$TMP/prep.log" 2>&1; then
	aie_not_ok "rpm: %prep stops when dkms.conf's version is not the spec's" \
		"$(tail -n 20 "$TMP/prep.log")"
elif grep -q "dkms.conf says version 0.0, the spec $VER" "$TMP/prep.log"; then
	aie_ok "rpm: %prep stops when dkms.conf's version is not the spec's"
else
	aie_not_ok "rpm: %prep stops when dkms.conf's version is not the spec's" \
		"$(tail -n 20 "$TMP/prep.log")"
fi

exit "$AIE_PKG_FAILED"
