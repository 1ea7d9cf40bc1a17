# SPDX-License-Identifier: GPL-2.0
#
# allocinfo-ext: the kbuild part is in module/Kbuild (and Kbuild, which
# DKMS builds through); this file is the user part.
#
#   make                 build module/allocinfo_ext.ko against KDIR
#   make tools           build tools/allocinfo-ext/allocinfo-ext (libdw-dev, libncurses-dev)
#   make install         install-module, install-tools and install-boot;
#                        without DESTDIR or INSTALL_MOD_PATH, then
#                        update-initramfs -u for KDIR's release if it
#                        has an initramfs
#   make install-module  the module into $(INSTALL_MOD_PATH)/lib/modules/
#                        <KDIR's release>/extra, then depmod
#                        (INSTALL_MOD_PATH defaults to DESTDIR)
#   make install-tools   allocinfo-ext, its man page, the systemd services
#                        and timers of export and annotate, annotate's udev
#                        rule, the Prometheus rules under
#                        $(DESTDIR)$(PREFIX) (PREFIX=/usr/local)
#   make install-boot    initramfs-tools' hook and init-top script that
#                        load the module from the initramfs, under
#                        $(DESTDIR)$(INITRAMFS_DIR) (/etc/initramfs-tools;
#                        /usr/share/initramfs-tools for PREFIX=/usr); and
#                        where dracut is (DRACUT_DIR exists), its module
#                        90allocinfo-ext in $(DESTDIR)$(DRACUT_DIR)
#   make run             boot a VM with the module loaded, run a workload,
#                        print the top sites
#   make check           run the host tests, then build and run the
#                        kselftests in a VM; with CI=true in the
#                        environment, on every kernel, as check-all
#   make check-all       make check on the kernels of CI's list and on
#                        every linux-image-*.deb in ../shared/kernels
#                        (the arm64 kernels too; AIE_CHECK_ARM64=0: not)
#   make smoke           no module: boot KERNEL, run every test program
#                        and allocinfo-ext once (they start, built for the
#                        guest's architecture); say the boot's time
#   make bench           time the allocators in a VM (icount) with and
#                        without allocinfo_ext; print the tables of
#                        Documentation/benchmarks.rst
#   make bench-profile OP=<op>[:<n>]
#                        where one aie_bench operation's instructions go,
#                        function by function, not loaded and under full
#                        tracking (a QEMU plugin counts them), on KERNEL
#   make dkms-check      add, build, install and remove the module with
#                        each Debian release's DKMS, in its root, for its
#                        kernels, and in a bookworm root with dracut (root)
#   make deb             the Debian packages allocinfo-ext-dkms and
#                        allocinfo-ext (tools/pkg/debian), built in a
#                        bullseye root of their own, bullseye-deb, into
#                        build/deb (root)
#   make deb-check       apt install of them in copies of the bullseye,
#                        bookworm and trixie roots: DKMS builds for each
#                        release's kernel and a second one, apt purge
#                        leaves nothing (root; part of make check)
#   make boot-check      make install in a Debian bookworm root with
#                        KERNEL's image, the module in the initramfs
#                        update-initramfs writes, booted under QEMU with
#                        systemd: loaded before the root was mounted (root;
#                        BOOT_INITRD=dracut: dracut's image, booted;
#                        BOOT_PKG=1: the packages by apt, not make
#                        install, and the export's file written)
#   make bench-scale     issue 43's scale: guests of 1 to 8 GiB, 2 to 255
#                        possible CPUs, up to 10 million live objects
#                        from the helper, the module loaded first (icount);
#                        print the table of Documentation/benchmarks.rst
#                        "Scale" (AIE_SCALE_CONFIGS: other guests;
#                        AIE_SCALE_OLD=<commit>: that commit's OOM
#                        report too, at 65,536 sites)
#   make bench-latency   the longest section with interrupts off of each
#                        read path, on 6.12-rt (KERNEL=) under icount,
#                        with the module before the read paths were
#                        bounded (AIE_LATENCY_BASE), after, and without:
#                        the table of Documentation/benchmarks.rst
#   make bench-boot      the same boot on the allocprof kernel: the share
#                        of /proc/allocinfo's live bytes that
#                        /proc/allocinfo_ext holds, at the end of boot
#                        and after a workload (root); BOOT_MEM: the
#                        guest's memory (default 1G); BOOT_FILES=N: then
#                        N files made and kept on a tmpfs, measured again
#   make bench-bcc       measure BCC's memleak beside allocinfo_ext on
#                        Debian's 6.12 in a VM, print the figures (root;
#                        AIE_BENCH_SRC: aie_bench's source directory)
#   make clean
#
# KDIR defaults to the running kernel's build tree. KERNEL selects the
# kernel for run, check, smoke and bench: 5.10, 6.1, 6.12 (default),
# 6.12-rt, 6.12-cloud, 7, arm64-6.12, arm64-7 (Debian's newest of each,
# tools/vm/kernels.sh; arm64 ones cross-built and booted on
# qemu-system-aarch64), or a path to a linux-image-*.deb with its
# linux-headers-*.deb beside it.

KDIR ?= /lib/modules/$(shell uname -r)/build
KERNEL ?= 6.12
PREFIX ?= /usr/local
INSTALL_MOD_PATH ?= $(DESTDIR)
INITRAMFS_DIR ?= $(if $(filter /usr,$(PREFIX)),/usr/share/initramfs-tools,/etc/initramfs-tools)
DRACUT_DIR ?= /usr/lib/dracut/modules.d
BOOT_INITRD ?= initramfs-tools
BOOT_PKG ?=
BOOT_MEM ?= 1G
BOOT_FILES ?= 0

.PHONY: all modules tools install install-module install-tools install-boot \
	clean check check-all smoke stress dkms-check run bench bench-profile \
	bench-scale bench-latency bench-bcc boot-check bench-boot kdir deb deb-check

all: modules

kdir:
	@test -d "$(KDIR)" || { \
	  echo "KDIR $(KDIR) not found: install the headers (apt-get install linux-headers-$$(uname -r)) or set KDIR"; \
	  exit 1; }

modules: kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module modules

tools:
	$(MAKE) -C tools/allocinfo-ext

# An initramfs of KDIR's release is packed again, with the module (the
# hook or dracut module of install-boot), on an install into the running
# system: by update-initramfs, or by dracut where it is the only one.
install: install-module install-tools install-boot
	$(if $(INSTALL_MOD_PATH),,@if [ ! -e /boot/initrd.img-$(KREL) ]; then :; \
	  elif command -v update-initramfs >/dev/null; then update-initramfs -u -k $(KREL); \
	  elif command -v dracut >/dev/null; then dracut -f /boot/initrd.img-$(KREL) $(KREL); fi)

# The kernel's own modules_install: signing, compression and the
# directory as the kernel's configuration has them. Debian's headers
# carry no signing key: kbuild's attempt to sign would fail (harmlessly,
# with SSL errors), so it is skipped when the key is absent. kbuild skips
# depmod without a System.map (Debian's headers have none): it is run
# here, for an install into the running system's tree; a staged install
# (INSTALL_MOD_PATH or DESTDIR) leaves it to the target.
KREL = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
	 $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
kconfig = $(shell sed -n 's/^$(1)=//p' $(KDIR)/include/config/auto.conf 2>/dev/null)
SIG_KEY = $(patsubst "%",%,$(call kconfig,CONFIG_MODULE_SIG_KEY))
SIG_KEY_FILE = $(if $(filter /%,$(SIG_KEY)),$(SIG_KEY),$(KDIR)/$(SIG_KEY))
NO_SIGN = $(if $(call kconfig,CONFIG_MODULE_SIG_ALL),$(if \
	$(filter pkcs11:%,$(SIG_KEY))$(wildcard $(SIG_KEY_FILE)),,CONFIG_MODULE_SIG_ALL=))

install-module: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module INSTALL_MOD_DIR=extra \
		INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) $(NO_SIGN) modules_install
	@$(if $(NO_SIGN),echo "allocinfo_ext.ko is not signed: no key $(SIG_KEY_FILE)")
	$(if $(INSTALL_MOD_PATH),@echo "staged in $(INSTALL_MOD_PATH): run depmod -a $(KREL) on the target",depmod -a $(KREL))

install-tools: tools
	$(MAKE) -C tools/allocinfo-ext install install-systemd DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)

install-boot:
	install -d $(DESTDIR)$(INITRAMFS_DIR)/hooks $(DESTDIR)$(INITRAMFS_DIR)/scripts/init-top
	install -m 0755 tools/initramfs/hook $(DESTDIR)$(INITRAMFS_DIR)/hooks/allocinfo_ext
	install -m 0755 tools/initramfs/init-top \
		$(DESTDIR)$(INITRAMFS_DIR)/scripts/init-top/allocinfo_ext
	$(if $(wildcard $(DRACUT_DIR)),install -d $(DESTDIR)$(DRACUT_DIR)/90allocinfo-ext)
	$(if $(wildcard $(DRACUT_DIR)),install -m 0755 tools/dracut/90allocinfo-ext/module-setup.sh \
		tools/dracut/90allocinfo-ext/allocinfo-ext.sh $(DESTDIR)$(DRACUT_DIR)/90allocinfo-ext/)

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR)/module clean; fi
	$(MAKE) -C tools/allocinfo-ext clean
	$(MAKE) -C selftests/allocinfo_ext/aie_helper KDIR=$(KDIR) clean 2>/dev/null || true
	$(MAKE) -C tools/bench KDIR=$(KDIR) clean 2>/dev/null || true

check:
	KERNEL=$(KERNEL) tools/vm/check.sh

check-all:
	tools/vm/check-all.sh

# The VM alone on KERNEL: no module, no host-side tests.
smoke:
	KERNEL=$(KERNEL) AIE_CHECK_ONE=1 AIE_HOST_TESTS=0 AIE_MODE=smoke \
	tools/vm/check.sh

# stress_test alone, on 4 vCPUs, for 5 minutes of storms, 5 more through
# one counter slot, and 100 load/unload cycles under storm (make check
# runs 20 s, 5 s and 10 cycles; 20 s through one slot on 4 vCPUs), on the
# one kernel KERNEL names.
stress:
	KERNEL=$(KERNEL) AIE_CHECK_ONE=1 AIE_MODE=stress AIE_VM_CPUS=4 \
	AIE_TIMEOUT=2400 \
	AIE_APPEND="aie.stress_seconds=300 aie.slot_seconds=300 aie.stress_cycles=100" \
	tools/vm/check.sh

# make check's roots, and bookworm's with dracut
dkms-check:
	AIE_DKMS_ROOTS="$${AIE_DKMS_ROOTS:-bullseye bookworm trixie bookworm-dracut}" \
		tools/pkg/dkms-test.sh

run:
	KERNEL=$(KERNEL) tools/vm/run.sh

# Debian's 6.12 and the allocprof test kernel, unless KERNEL is given.
bench:
	$(if $(filter file,$(origin KERNEL)),,AIE_BENCH_KERNELS="$(KERNEL)") \
		tools/vm/bench.sh

bench-profile:
	$(if $(OP),,$(error OP=<op>[:<n>] is needed, an operation of aie_bench: kmalloc-64, pages-0, ...))
	AIE_BENCH_PROFILE=$(OP) AIE_BENCH_KERNELS=$(KERNEL) tools/vm/bench.sh

# Debian's 6.12 unless KERNEL is given.
bench-scale:
	KERNEL=$(KERNEL) tools/vm/bench-scale.sh

# Debian's 6.12-rt unless KERNEL is given.
bench-latency:
	KERNEL=$(if $(filter file,$(origin KERNEL)),6.12-rt,$(KERNEL)) tools/vm/bench-latency.sh

boot-check:
	KERNEL=$(KERNEL) AIE_BOOT_INITRD=$(BOOT_INITRD) AIE_BOOT_PKG=$(BOOT_PKG) \
		tools/pkg/boot-test.sh

deb:
	tools/pkg/build-deb.sh

deb-check:
	tools/pkg/pkg-test.sh

bench-boot:
	KERNEL=$(if $(filter file,$(origin KERNEL)),$(firstword $(wildcard \
		$(CURDIR)/../shared/kernels/linux-image-*-allocprof_*_amd64.deb)),$(KERNEL)) \
		AIE_BOOT_MEASURE=1 AIE_BOOT_MEM=$(BOOT_MEM) AIE_BOOT_FILES=$(BOOT_FILES) \
		tools/pkg/boot-test.sh

# BCC memleak beside allocinfo_ext, in a VM with a Debian root over 9p.
bench-bcc:
	tools/bench/bcc.sh
