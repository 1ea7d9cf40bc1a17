#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# allocinfo-ext's dracut pre-udev hook: load allocinfo_ext first, with the
# options of /etc/modprobe.d. -b: modprobe.blacklist=allocinfo_ext on the
# kernel command line skips it for one boot.
modprobe -b allocinfo_ext || echo "allocinfo_ext: modprobe failed" >&2
