# SPDX-License-Identifier: GPL-2.0
# lib.sh - what the packaging tests share: TAP lines in the form make
# check counts ("ok - host: <name>", "not ok - host: <name>" with "# "
# lines after it), a clean copy of the source tree, and (through
# tools/vm/lib.sh) package installs and Debian's kernel headers.

. "$(dirname "${BASH_SOURCE[0]}")/../vm/lib.sh"

AIE_PKG_FAILED=0
# the lines printed, for a script that closes with "N passed, N failed"
AIE_PKG_PASSES=0
AIE_PKG_FAILS=0

aie_ok() { echo "ok - host: $1"; AIE_PKG_PASSES=$((AIE_PKG_PASSES + 1)); }
aie_skip() { echo "ok - host: $1 # SKIP $2"; }
aie_not_ok() {
	echo "not ok - host: $1"
	AIE_PKG_FAILS=$((AIE_PKG_FAILS + 1))
	shift
	printf '%s\n' "$@" | head -n 40 | sed 's/^/#   /'
	AIE_PKG_FAILED=1
}

# aie_check NAME LOG CMD...: one TAP line, ok when CMD succeeds; its
# output goes to LOG and, on failure, after the line.
aie_check() {
	local name=$1 log=$2
	shift 2
	if "$@" >"$log" 2>&1; then
		aie_ok "$name"
	else
		aie_not_ok "$name" "command: $*" "$(tail -n 30 "$log")"
	fi
}

# aie_stage_tree DIR: copy the source tree to DIR as a fresh checkout has
# it: without .git and without what .gitignore names (builds, caches).
aie_stage_tree() {
	mkdir -p "$1" &&
		rsync -a --exclude=.git --exclude-from="$AIE_TOP/.gitignore" \
			"$AIE_TOP/" "$1/" ||
		aie_die "cannot copy the source tree to $1"
}

# aie_module_suffix KDIR: the name modules_install gives a module of that
# kernel ends in: .ko, or .ko.xz, .ko.gz, .ko.zst when it compresses
# modules (from 6.6 only with CONFIG_MODULE_COMPRESS_ALL; before, with
# any CONFIG_MODULE_COMPRESS_<type> but NONE).
aie_module_suffix() {
	local conf=$1/include/config/auto.conf
	[ -f "$conf" ] || aie_die "no $conf"
	if grep -qx 'CONFIG_MODULE_COMPRESS=y' "$conf" &&
		! grep -qx 'CONFIG_MODULE_COMPRESS_ALL=y' "$conf"; then
		echo .ko
	elif grep -qx 'CONFIG_MODULE_COMPRESS_XZ=y' "$conf"; then
		echo .ko.xz
	elif grep -qx 'CONFIG_MODULE_COMPRESS_GZIP=y' "$conf"; then
		echo .ko.gz
	elif grep -qx 'CONFIG_MODULE_COMPRESS_ZSTD=y' "$conf"; then
		echo .ko.zst
	else
		echo .ko
	fi
}

# aie_debian_headers SERIES: install on this Debian 12 host the headers of
# Debian's kernel of that series (6.12 or 6.1), as a user of the host
# would, and set AIE_KREL to its release; its kbuild tree is then
# /lib/modules/$AIE_KREL/build. (make check builds in roots, kernels.sh;
# install-test.sh tests make install on the host itself.)
aie_debian_headers() {
	local meta
	case "$1" in
	6.12) meta=linux-headers-6.12-amd64 ;;
	6.1) meta=linux-headers-amd64 ;;
	*) aie_die "aie_debian_headers: expected 6.12 or 6.1, not $1" ;;
	esac
	aie_apt_install "$meta"
	AIE_KREL=$(dpkg-query -W -f='${Depends}' "$meta" |
		sed -n 's/.*linux-headers-\([^ ,]*\).*/\1/p')
	[ -n "$AIE_KREL" ] || aie_die "cannot tell the release of $meta"
	aie_apt_install "linux-headers-$AIE_KREL"
}

# aie_host_apt_install PKG...: install on this host the Debian packages
# that are missing, of the host's own release, through the project's apt
# configuration ($AIE_APT, tools/vm/kernels.sh: its sources, lists and
# cache under .cache/) and the host's dpkg database: the host's /etc/apt
# is read for its mirrors only. -t keeps apt to the host's release, which
# the project's sources list has beside the others; no package cache is
# written, as the project's (of its own status) is shared. Needs root.
aie_host_apt_install() {
	local missing=() p rel
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	rel=$(. /etc/os-release && echo "$VERSION_CODENAME")
	aie_apt_update
	aie_log "installing ${missing[*]} (the project's apt, $rel)"
	DEBIAN_FRONTEND=noninteractive aie_apt apt-get \
		-o Dir::State::status=/var/lib/dpkg/status -o Debug::NoLocking=0 \
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= \
		-t "$rel" install -y -qq --no-install-recommends "${missing[@]}" >&2 ||
		aie_die "apt-get install ${missing[*]} failed"
}

# aie_overlay_run RELEASE DIR CMD...: CMD in a copy of the root of RELEASE
# (kernels.sh) that costs nothing to make: an overlay of the root, read
# only, under DIR/upper, where whatever CMD changes lands, so the shared
# root stays as it was. The tree, the cache and the build directory are
# at their own paths, /proc is mounted, and apt's archive cache is
# $AIE_CACHE/pkg-archives/RELEASE (what apt downloads is kept for the next
# run). Each call mounts the same DIR/upper again: rm -rf DIR starts anew.
aie_overlay_run() {
	local rel=$1 dir=$2 arch=$AIE_CACHE/pkg-archives/$1
	shift 2
	[ -d "$AIE_ROOTS/$rel/usr" ] || aie_die "no $rel root in $AIE_ROOTS"
	mkdir -p "$dir/upper" "$dir/work" "$dir/mnt" "$arch/partial" "$AIE_BUILD"
	aie_sudo unshare -m -- sh -c '
		lower=$1 dir=$2 top=$3 cache=$4 build=$5 arch=$6
		m=$dir/mnt
		shift 6
		mount --make-rprivate / &&
		mount -t overlay overlay -o "lowerdir=$lower,upperdir=$dir/upper,workdir=$dir/work" "$m" &&
		mkdir -p "$m$top" "$m$cache" "$m$build" &&
		mount --bind "$top" "$m$top" &&
		mount --bind "$cache" "$m$cache" &&
		mount --bind "$build" "$m$build" &&
		mount --bind "$arch" "$m/var/cache/apt/archives" &&
		mount -t proc proc "$m/proc" &&
		exec chroot "$m" env PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"' \
		sh "$AIE_ROOTS/$rel" "$dir" "$AIE_TOP" "$AIE_CACHE" "$AIE_BUILD" \
		"$arch" "$@"
}
