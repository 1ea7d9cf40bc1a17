#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dracut module of allocinfo-ext: puts allocinfo_ext.ko (and what
# modprobe.d says about it, which dracut copies) into the initramfs of
# the kernel being packed, with a pre-udev hook that loads it before udev
# starts and before the root file system is mounted. Left out when
# /etc/default/allocinfo-ext says INITRAMFS=no, or for a kernel that has
# no allocinfo_ext module. dracut sources it, with kernel (the release)
# and moddir (this directory) set.
# shellcheck disable=SC2154

# 0: in every initramfs it can be in; 1: left out
check() {
	# read, not sourced: the file is also the export service's environment
	if [[ -r /etc/default/allocinfo-ext ]] &&
		[[ "$(sed -n 's/^INITRAMFS=["'\'']\{0,1\}\([a-z]*\).*/\1/p' \
			/etc/default/allocinfo-ext | tail -n 1)" == no ]]; then
		return 1
	fi
	modinfo -k "$kernel" allocinfo_ext >/dev/null 2>&1 || return 1
	return 0
}

depends() {
	return 0
}

installkernel() {
	instmods allocinfo_ext
}

install() {
	inst_hook pre-udev 00 "$moddir/allocinfo-ext.sh"
}
