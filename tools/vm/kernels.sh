# SPDX-License-Identifier: GPL-2.0
# kernels.sh - the kernels make check, run and bench take by name, and the
# Debian roots their modules are built in. Sourced by lib.sh.
#
#   name        series, flavour               built in (compiler)
#   5.10        bullseye's 5.10               bullseye root (gcc-10)
#   6.1         bookworm's 6.1                bookworm root (gcc-12)
#   6.12        bookworm-security's 6.12      bookworm root (gcc-12)
#   6.12-rt     the same, PREEMPT_RT          bookworm root (gcc-12)
#   6.12-cloud  the same, cloud flavour       bookworm root (gcc-12)
#   7           trixie-backports' newest 7.x  trixie root (gcc-14)
#   arm64-6.12  bookworm-security's 6.12,     bookworm root (gcc-12-aarch64-
#               arm64, booted at 48-bit VA    linux-gnu, cross)
#   arm64-7     trixie-backports' newest 7.x, trixie root (gcc-14-aarch64-
#               arm64, booted at 52-bit VA    linux-gnu, cross)
#   a .deb      linux-image-*.deb with its linux-headers-*.deb beside it,
#               in the root of the release whose gcc built it
#               (CONFIG_CC_VERSION_TEXT)
#
# Each name is resolved to the newest ABI the archive has when the script
# runs (the archive drops old point releases), through an apt
# configuration of the project's own in $AIE_CACHE/apt: its sources list
# (the host's mirrors, every suite above, amd64 and arm64), lists and
# cache; the host's /etc/apt is read for its mirrors and never written.
# AIE_ARCH is the kernel's architecture, x86_64 or arm64.
#
# A root is a minimal Debian of that release (debootstrap) with its DKMS,
# compiler and the kernel headers installed by its own apt, as DKMS on
# that release builds a module. Roots live in $AIE_ROOTS, outside the
# clone so that a fresh clone reuses them (default
# /var/cache/allocinfo-ext/roots); one without its stamp is made again.
# Commands run in a root under a mount namespace of their own, with the
# source tree, the cache and the build directory at the same paths as
# on the host.
#
# An arm64 kernel is built in the same root, by Debian's cross compiler:
# the root gains arm64 as a foreign architecture, the cross gcc and the
# arm64 libraries the guest's static programs link (AIE_ROOT_PKGS_ARM64,
# installed when an arm64 kernel first needs them, so that x86 runs pay
# nothing). Its headers are unpacked with dpkg -x (apt would pull in
# arm64's gcc); their -common and the amd64 linux-kbuild are apt's, as for
# an amd64 kernel; their .kernelvariables sets ARCH and CROSS_COMPILE.

AIE_ROOTS=${AIE_ROOTS:-/var/cache/allocinfo-ext/roots}
AIE_APT=${AIE_APT:-$AIE_CACHE/apt}
# What a root has besides debootstrap's minbase; bump the stamp's version
# when this list changes, so that older roots are made again.
AIE_ROOT_PKGS="dkms binutils gcc make libc6-dev libelf-dev kmod rsync"
AIE_ROOT_STAMP=.aie-root-1
# What a root has besides, for arm64 kernels, the gcc-N-aarch64-linux-gnu
# of its release (aie_root_arm64).
AIE_ROOT_PKGS_ARM64="gcc-aarch64-linux-gnu libc6-dev:arm64 libdw-dev:arm64
	libelf-dev:arm64 zlib1g-dev:arm64 liblzma-dev:arm64 libbz2-dev:arm64
	libzstd-dev:arm64 libncurses-dev:arm64"
AIE_ARCH=x86_64

# aie_host_mirror SUITE: the URI the host's apt sources give for SUITE.
aie_host_mirror() {
	local uri
	uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		2>/dev/null | awk -v s="$1" '
		$1 == "deb" {
			sub(/\[[^]]*\]/, "")	# the options
			if ($3 == s) { print $2; exit }
		}')
	[ -n "$uri" ] || uri=$(cat /etc/apt/sources.list.d/*.sources \
		2>/dev/null | awk -v s="$1" '
		/^[ \t]*$/ { uris = ""; suites = ""; next }
		/^URIs:/ { uris = $2 }
		/^Suites:/ { for (i = 2; i <= NF; i++) suites = suites " " $i " " }
		uris != "" && index(suites, " " s " ") { print uris; exit }')
	[ -n "$uri" ] || aie_die "the host's apt sources name no mirror for $1"
	echo "${uri%/}"
}

# aie_suites RELEASE: the suites a root of RELEASE, and the project's apt,
# read for it.
aie_suites() {
	case "$1" in
	bullseye) echo "bullseye bullseye-security" ;;
	bookworm) echo "bookworm bookworm-security" ;;
	trixie) echo "trixie trixie-security trixie-backports" ;;
	*) aie_die "no suites known for $1" ;;
	esac
}

# aie_sources_list RELEASE...: sources.list lines for those releases, the
# mirrors taken from the host's own sources for its release.
aie_sources_list() {
	local host main sec r s
	host=$(. /etc/os-release && echo "$VERSION_CODENAME")
	main=$(aie_host_mirror "$host")
	sec=$(aie_host_mirror "$host-security")
	for r in "$@"; do
		for s in $(aie_suites "$r"); do
			case "$s" in
			*-security) echo "deb $sec $s main" ;;
			*) echo "deb $main $s main" ;;
			esac
		done
	done
}

# aie_apt apt-get|apt-cache ARGS...: apt through the project's own
# configuration in $AIE_APT.
aie_apt() {
	local tool=$1
	shift
	"$tool" -o Dir::Etc::sourcelist="$AIE_APT/sources.list" \
		-o Dir::Etc::sourceparts=/nonexistent \
		-o Dir::State::Lists="$AIE_APT/lists" \
		-o Dir::State::status="$AIE_APT/status" \
		-o Dir::Cache="$AIE_APT/cache" \
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root \
		-o APT::Architectures::=amd64 -o APT::Architectures::=arm64 "$@"
}

# aie_apt_update: the project's apt lists, fetched again when older than
# ten minutes (so once per run of make check-all), under a lock.
aie_apt_update() {
	mkdir -p "$AIE_APT/lists/partial" "$AIE_APT/cache/archives/partial"
	(
		flock 8
		aie_sources_list bullseye bookworm trixie | sed 's/^deb /deb [arch=amd64,arm64] /' \
			>"$AIE_APT/sources.list.new"
		: >>"$AIE_APT/status"
		if [ -n "$(find "$AIE_APT/updated" -mmin -10 2>/dev/null)" ] &&
			cmp -s "$AIE_APT/sources.list.new" "$AIE_APT/sources.list"; then
			rm -f "$AIE_APT/sources.list.new"
			exit 0
		fi
		mv "$AIE_APT/sources.list.new" "$AIE_APT/sources.list"
		aie_log "updating the project's apt lists ($AIE_APT)"
		aie_apt apt-get update -qq >&2 || aie_die "apt-get update ($AIE_APT) failed"
		touch "$AIE_APT/updated"
	) 8>"$AIE_APT/.lock" || exit 1
}

# aie_newest REGEX: the newest package whose name matches REGEX whole.
aie_newest() {
	aie_apt apt-cache pkgnames linux- | grep -xE "$1" | sort -V | tail -n 1
}

# aie_kernel_name NAME: for a name of the table above, set AIE_ROOT_REL,
# AIE_ARCH, AIE_KVA (the VA bits an arm64 kernel boots with) and AIE_KREL
# (the newest release of that series); returns 1 for anything else.
aie_kernel_name() {
	local re
	AIE_ARCH=x86_64 AIE_KVA=
	case "$1" in
	5.10) AIE_ROOT_REL=bullseye re='5\.10\.0-[0-9]+-amd64' ;;
	6.1) AIE_ROOT_REL=bookworm re='6\.1\.0-[0-9]+-amd64' ;;
	6.12) AIE_ROOT_REL=bookworm re='6\.12\.[0-9]+\+deb12-amd64' ;;
	6.12-rt) AIE_ROOT_REL=bookworm re='6\.12\.[0-9]+\+deb12-rt-amd64' ;;
	6.12-cloud) AIE_ROOT_REL=bookworm re='6\.12\.[0-9]+\+deb12-cloud-amd64' ;;
	7) AIE_ROOT_REL=trixie re='7\.[0-9]+\.[0-9]+\+deb13-amd64' ;;
	arm64-6.12) AIE_ROOT_REL=bookworm AIE_ARCH=arm64 AIE_KVA=48
		re='6\.12\.[0-9]+\+deb12-arm64' ;;
	arm64-7) AIE_ROOT_REL=trixie AIE_ARCH=arm64 AIE_KVA=52
		re='7\.[0-9]+\.[0-9]+\+deb13-arm64' ;;
	*) return 1 ;;
	esac
	aie_apt_update
	AIE_KREL=$(aie_newest "linux-headers-$re")
	AIE_KREL=${AIE_KREL#linux-headers-}
	[ -n "$AIE_KREL" ] || aie_die "KERNEL=$1: no linux-headers-$re in the archive"
}

# aie_root_run RELEASE CMD...: CMD in the root of RELEASE, with the source
# tree, $AIE_CACHE and $AIE_BUILD mounted at their own paths and /proc
# (objtool reads it), in a mount namespace that ends with CMD.
aie_root_run() {
	local root=$AIE_ROOTS/$1 d
	shift
	for d in "$AIE_TOP" "$AIE_CACHE" "$AIE_BUILD"; do
		mkdir -p "$d" "$root$d"
	done
	aie_sudo unshare -m -- sh -c '
		root=$1 top=$2 cache=$3 build=$4
		shift 4
		mount --make-rprivate / &&
		mount --bind "$top" "$root$top" &&
		mount --bind "$cache" "$root$cache" &&
		mount --bind "$build" "$root$build" &&
		mount -t proc proc "$root/proc" &&
		exec chroot "$root" env PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"' \
		sh "$root" "$AIE_TOP" "$AIE_CACHE" "$AIE_BUILD" "$@"
}

# aie_root RELEASE[-VARIANT]: make the root of RELEASE if it has no stamp,
# under a lock (check-all.sh runs several kernels at once). A variant
# (bookworm-dracut: dkms-test.sh's) is a root of its own, of RELEASE.
aie_root() {
	local rel=$1 root=$AIE_ROOTS/$1 suite=${1%%-*} host main
	aie_sudo mkdir -p "$AIE_ROOTS"
	(
		flock 8
		[ -e "$root/$AIE_ROOT_STAMP" ] && exit 0
		aie_apt_install debootstrap
		host=$(. /etc/os-release && echo "$VERSION_CODENAME")
		main=$(aie_host_mirror "$host")
		aie_log "making the $rel root in $root (debootstrap, about a minute)"
		aie_sudo rm -rf "$root"
		aie_sudo debootstrap --variant=minbase "$suite" "$root" "$main" \
			>"$AIE_ROOTS/$rel.log" 2>&1 ||
			aie_die "debootstrap $suite failed: see $AIE_ROOTS/$rel.log"
		aie_sources_list "$suite" | aie_sudo tee "$root/etc/apt/sources.list" >/dev/null
		aie_root_apt "$rel" $AIE_ROOT_PKGS
		aie_sudo touch "$root/$AIE_ROOT_STAMP"
	) 8>"$AIE_ROOTS/.$rel.lock" || exit 1
	# what the list has gained since the root was made
	aie_root_apt "$rel" $AIE_ROOT_PKGS
}

# aie_root_apt RELEASE PKG...: install PKG in the root of RELEASE with its
# own apt (lists fetched again when older than ten minutes), unless there.
aie_root_apt() {
	local rel=$1 root=$AIE_ROOTS/$1 p have missing=()
	shift
	# name:arch of each installed; a PKG without :arch is amd64's or all's
	have=$(aie_root_run "$rel" dpkg-query -W \
		-f='${Package}:${Architecture} ${Status}\n' "$@" 2>/dev/null |
		awk '/ install ok installed$/ { print $1 }' ||
		true)	# dpkg-query fails when one is not installed
	for p in "$@"; do
		case "$p" in
		*:*) grep -qxF "$p" <<<"$have" ;;
		*) grep -qxF -e "$p:amd64" -e "$p:all" <<<"$have" ;;
		esac || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ -z "$(find "$root/var/lib/apt/aie-updated" -mmin -10 2>/dev/null)" ]; then
		aie_root_run "$rel" apt-get update -qq >&2 ||
			aie_die "apt-get update in the $rel root failed"
		aie_sudo touch "$root/var/lib/apt/aie-updated"
	fi
	aie_log "installing ${missing[*]} in the $rel root"
	# INITRD=No: the image a header package may pull in needs no
	# initramfs in a root that only builds
	aie_root_run "$rel" env DEBIAN_FRONTEND=noninteractive INITRD=No apt-get install \
		-y -qq --no-install-recommends "${missing[@]}" >&2 ||
		aie_die "apt-get install ${missing[*]} in the $rel root failed"
}

# aie_root_arm64 RELEASE: what the root of RELEASE needs to build for
# arm64 kernels (AIE_ROOT_PKGS_ARM64 and its release's cross gcc), added
# to the root under its lock: the root's dpkg learns arm64 and its apt
# lists are fetched again.
aie_root_arm64() {
	local rel=$1 root=$AIE_ROOTS/$1 gcc
	case "$rel" in
	bookworm) gcc=gcc-12-aarch64-linux-gnu ;;
	trixie) gcc=gcc-14-aarch64-linux-gnu ;;
	*) aie_die "no arm64 kernels are built in the $rel root" ;;
	esac
	(
		flock 8
		if ! aie_root_run "$rel" dpkg --print-foreign-architectures |
			grep -qx arm64; then
			aie_log "adding arm64 to the $rel root's dpkg"
			aie_root_run "$rel" dpkg --add-architecture arm64 ||
				aie_die "dpkg --add-architecture arm64 in the $rel root failed"
			aie_sudo rm -f "$root/var/lib/apt/aie-updated"
		fi
		aie_root_apt "$rel" "$gcc" $AIE_ROOT_PKGS_ARM64
	) 8>"$AIE_ROOTS/.$rel.lock" || exit 1
}

# aie_root_x86 RELEASE: what the root of RELEASE needs to build for amd64
# kernels besides: i386's static libc and its release's 32-bit libgcc, for
# gcc -m32 (ioctl32_test), under its lock. Not gcc-multilib, which
# conflicts with the cross compilers of aie_root_arm64 (and gives
# /usr/include/asm, which selftests/allocinfo_ext/Makefile finds instead).
aie_root_x86() {
	local rel=$1 lib
	case "$rel" in
	bullseye) lib=lib32gcc-10-dev ;;
	bookworm) lib=lib32gcc-12-dev ;;
	trixie) lib=lib32gcc-14-dev ;;
	*) aie_die "no i386 libraries known for the $rel root" ;;
	esac
	(
		flock 8
		aie_root_apt "$rel" libc6-dev-i386 "$lib"
	) 8>"$AIE_ROOTS/.$rel.lock" || exit 1
}

# aie_root_headers_arm64 RELEASE KREL: the kbuild tree of the arm64 kernel
# KREL in the root of RELEASE: its -common headers and the amd64
# linux-kbuild (which the tree's scripts link to) by the root's apt, the
# arm64 headers by dpkg -x from the project's apt.
aie_root_headers_arm64() {
	local rel=$1 krel=$2 root=$AIE_ROOTS/$1 pkg=linux-headers-$2 deps tmp
	deps=$(aie_apt apt-cache show "$pkg:arm64" 2>/dev/null |
		sed -n '1,/^$/s/^Depends: //p' | tr ',|' '\n\n' |
		sed -n 's/^ *\(linux-\(headers-[^ ]*-common\|kbuild-[^ ]*\)\).*/\1/p' |
		sort -u) || aie_die "$pkg: not in the project's apt ($AIE_APT)"
	[ "$(wc -w <<<"$deps")" = 2 ] ||
		aie_die "$pkg: expected a -common and a linux-kbuild among its dependencies, got '$deps'"
	aie_root_apt "$rel" $deps
	[ -f "$root/usr/src/$pkg/Makefile" ] && return 0
	tmp=$AIE_CACHE/kernels/$krel.hdr
	aie_deb_extract "$pkg:arm64" "$tmp"
	(
		flock 8
		[ -f "$root/usr/src/$pkg/Makefile" ] && exit 0
		aie_sudo rm -rf "$root/usr/src/$pkg.new" &&
			aie_sudo cp -a "$tmp/usr/src/$pkg" "$root/usr/src/$pkg.new" &&
			aie_sudo mv "$root/usr/src/$pkg.new" "$root/usr/src/$pkg" ||
			aie_die "cannot unpack $pkg into the $rel root"
	) 8>"$AIE_ROOTS/.$rel.lock" || exit 1
}

# aie_deb_root DEB: the release whose compiler built the kernel of the
# linux-headers DEB (its CONFIG_CC_VERSION_TEXT): gcc 10 bullseye, 12
# bookworm, 14 trixie.
aie_deb_root() {
	local text major
	text=$(dpkg-deb --fsys-tarfile "$1" | tar -xO --wildcards \
		'*/include/config/auto.conf' 2>/dev/null |
		sed -n 's/^CONFIG_CC_VERSION_TEXT="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p')
	major=$(sed -n 's/.*) \([0-9]*\)\..*/\1/p' <<<"$text")
	case "$major" in
	10) echo bullseye ;;
	12) echo bookworm ;;
	14) echo trixie ;;
	*) aie_die "$1: built with '$text', a compiler of no Debian release we build in" ;;
	esac
}
