# SPDX-License-Identifier: GPL-2.0
#
# allocinfo-ext: the kbuild part is in Kbuild (module/Kbuild); this file is
# the user part.
#
#   make                 build module/allocinfo_ext.ko against KDIR
#   make tools           build tools/allocinfo-ext/allocinfo-ext (libdw-dev)
#   make install         install allocinfo-ext and its man page under
#                        $(DESTDIR)$(PREFIX) (PREFIX=/usr/local)
#   make run             boot a VM with the module loaded, run a workload,
#                        print the top sites
#   make check           run the tool's host tests, then build and run the
#                        kselftests in a VM
#   make clean
#
# KDIR defaults to the running kernel's build tree. KERNEL selects the
# kernel for run and check: 6.12 (default), 6.1, or a path to a
# linux-image-*.deb with its linux-headers-*.deb beside it.

KDIR ?= /lib/modules/$(shell uname -r)/build
KERNEL ?= 6.12
PREFIX ?= /usr/local

.PHONY: all modules tools install clean check stress run

all: modules

modules:
	@test -d "$(KDIR)" || { \
	  echo "KDIR $(KDIR) not found: install the headers (apt-get install linux-headers-$$(uname -r)) or set KDIR"; \
	  exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tools:
	$(MAKE) -C tools/allocinfo-ext

install: tools
	$(MAKE) -C tools/allocinfo-ext install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	$(MAKE) -C tools/allocinfo-ext clean
	$(MAKE) -C selftests/allocinfo_ext/aie_helper KDIR=$(KDIR) clean 2>/dev/null || true

check:
	KERNEL=$(KERNEL) tools/vm/check.sh

# stress_test alone, on 4 vCPUs, for 5 minutes of storms and 100
# load/unload cycles under storm (the same test runs 20 s and 10 cycles in
# make check).
stress:
	KERNEL=$(KERNEL) AIE_MODE=stress AIE_VM_CPUS=4 AIE_TIMEOUT=2400 \
	AIE_APPEND="aie.stress_seconds=300 aie.stress_cycles=100" \
	tools/vm/check.sh

run:
	KERNEL=$(KERNEL) tools/vm/run.sh
