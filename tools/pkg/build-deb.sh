#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-deb.sh - `make deb`, and the first step of pkg-test.sh and of
# boot-test.sh's package boot: the Debian packages allocinfo-ext-dkms
# (arch all) and allocinfo-ext (amd64), by dpkg-buildpackage -us -uc -b,
# into $AIE_BUILD/deb (AIE_DEB_OUT), with lintian's verdict beside them
# (lintian.txt).
#
# debian/ lives in tools/pkg/debian, not at the top: the top of the tree
# is the module's (Kbuild, Makefile, module/, include/ as an out-of-tree
# kernel module has them, and what DKMS copies), and a debian/ there
# would be one more directory every user of the tree meets. So the tree
# is copied as a fresh checkout has it (aie_stage_tree) to a staging
# directory, tools/pkg/debian becomes its debian/, and the package is
# built there.
#
# The version is the project's, written once: the tool's
# AIE_TOOL_VERSION (tools/allocinfo-ext/util.h), which dkms.conf's
# PACKAGE_VERSION must equal (the module's directory in /usr/src is named
# after it); debian/changelog is made from it, revision -1, dated by the
# last commit.
#
# Built in bullseye-deb, a bullseye root of its own (kernels.sh's
# aie_root, in AIE_ROOTS; made once, about 2 minutes) that keeps the
# build dependencies its apt installed (apt-get build-dep, under the
# root's lock): bullseye is the oldest release the packages are for, so
# the tool's binary asks for bullseye's glibc and libdw1 and installs on
# bookworm and trixie too (trixie's libdw1t64 provides libdw1). The
# build writes only in the staging directory. lintian is the host's
# (bookworm's).
#
# A second run on the same tree (the staged copy's checksum) builds
# nothing. Needs root (chroot, mount).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

OUT=${AIE_DEB_OUT:-$AIE_BUILD/deb}
BUILD_REL=bullseye-deb

VER=$(sed -n 's/^#define AIE_TOOL_VERSION[[:space:]]*"\(.*\)"$/\1/p' \
	"$AIE_TOP/tools/allocinfo-ext/util.h")
DKMS_VER=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$AIE_TOP/dkms.conf")
[ -n "$VER" ] || aie_die "tools/allocinfo-ext/util.h: no AIE_TOOL_VERSION"
[ "$VER" = "$DKMS_VER" ] ||
	aie_die "dkms.conf's PACKAGE_VERSION ($DKMS_VER) is not AIE_TOOL_VERSION ($VER)"
DEBVER=$VER-1

work=$AIE_BUILD/deb-build
stage=$work/allocinfo-ext-$VER
rm -rf "$stage"
aie_stage_tree "$stage"
cp -r "$AIE_TOP/tools/pkg/debian" "$stage/debian"
date=$(git -C "$AIE_TOP" log -1 --format=%aD 2>/dev/null || date -R)
maint=$(sed -n 's/^Maintainer: //p' "$stage/debian/control")
cat >"$stage/debian/changelog" <<EOT
allocinfo-ext ($DEBVER) unstable; urgency=medium

  * Built from the allocinfo-ext tree, version $VER.

 -- $maint  $date
EOT

sum=$(cd "$stage" && find . -type f -print0 | sort -z | xargs -0 sha256sum |
	sha256sum | cut -d' ' -f1)
if [ -e "$OUT/.tree-sum" ] && [ "$(cat "$OUT/.tree-sum")" = "$sum" ] &&
	ls "$OUT"/allocinfo-ext-dkms_"$DEBVER"_all.deb "$OUT"/allocinfo-ext_"$DEBVER"_amd64.deb \
		>/dev/null 2>&1; then
	aie_log "packages of this tree already in $OUT"
	exit 0
fi

aie_root "$BUILD_REL"
(
	flock 8
	aie_root_run "$BUILD_REL" sh -c 'cd "$1" && dpkg-checkbuilddeps' sh "$stage" ||
		aie_root_run "$BUILD_REL" sh -c 'cd "$1" && apt-get update -qq &&
			DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq \
			--no-install-recommends ./' sh "$stage" >&2 ||
		aie_die "apt-get build-dep in the $BUILD_REL root failed"
) 8>"$AIE_ROOTS/.$BUILD_REL.lock" || exit 1
aie_log "building the packages in the $BUILD_REL root"
aie_root_run "$BUILD_REL" sh -c 'cd "$1" && dpkg-buildpackage -us -uc -b' \
	sh "$stage" >"$work/build.log" 2>&1 ||
	aie_die "dpkg-buildpackage failed: $(tail -n 30 "$work/build.log")"

rm -rf "$OUT" && mkdir -p "$OUT"
for d in allocinfo-ext-dkms_"$DEBVER"_all.deb allocinfo-ext_"$DEBVER"_amd64.deb; do
	mv "$work/$d" "$OUT/" || aie_die "dpkg-buildpackage made no $d"
done
rm -f "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo

aie_apt_install lintian
lintian --info --display-info "$OUT"/*.deb >"$OUT/lintian.txt" 2>&1 || true
echo "$sum" >"$OUT/.tree-sum"
aie_log "built $(cd "$OUT" && echo *.deb)"
