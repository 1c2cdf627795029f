# SPDX-License-Identifier: GPL-2.0
#
# mrc: build the module and mrcctl, run the tests, run the demo.
#
#   make              mrc.ko (+ KUnit, guard, kverbs and trimq test modules) for the test kernel,
#                     mrcctl, libmrc (the OCP MRC API) with its examples, and the
#                     MPI test program (tests/mpi)
#   make KDIR=DIR     the same against another kernel build tree, e.g.
#                     KDIR=/lib/modules/6.12.117+deb12-amd64/build
#   make distro       modules against Debian's linux-headers-6.12-amd64
#   make distro61     modules against Debian 12's own 6.1 (linux-headers-amd64)
#   make check        builds, then the fast tier of the tests in the VM (CI runs it):
#                     KUnit and every selftest in quick mode on the KASAN kernel,
#                     and on Debian's at its real speed; ends "N passed, M failed"
#   make check-full   the same with every selftest full length on both kernels,
#                     and every selftest in quick mode on Debian 12's 6.1
#   make coverage     line coverage of drivers/mrc reached by a tier on the KASAN
#                     kernel (TIER=quick, the default, or TIER=full)
#   make flake        a tier N times, listing every test whose result changed
#                     (N=3, TIER=quick by default)
#   make demo         boots the VM and shows the spray over the lab fabric
#   make bench        rxe, mrc and TCP figures from one VM run
#   make kernel       build (or find cached) the test kernel
#   make sparse       sparse (C=2) over the driver, for the test kernel
#   make deb          Debian packages in build/deb: mrc-dkms (mrc.ko's source
#                     for DKMS), mrc-utils (mrcctl), libmrc0, libmrc-dev;
#                     lintian-checked. Version: the VERSION file
#   make setup        install the Debian packages the project needs
#   make wireshark    install the Wireshark/tshark dissector (tools/wireshark/mrc.lua)
#                     into your Lua plugin folder (make -C tools/wireshark help)
#
# Modules are built in build/<kernel release>/ (a tree of links to the sources),
# so builds for several kernels live side by side.

SHELL := /bin/bash
REPO := $(CURDIR)
W ?= 1

# Debian's own kernels: the newest installed 6.12 and 6.1 headers
DISTRO_KVER = $(notdir $(lastword $(sort $(wildcard /lib/modules/6.12*-amd64))))
DISTRO61_KVER = $(notdir $(lastword $(sort $(wildcard /lib/modules/6.1.0-*-amd64))))

TIER ?= quick
N ?= 3

.PHONY: all modules distro distro61 mrcctl libmrc mpi deb kernel check check-full coverage flake demo sparse setup clean help bench wireshark

all: modules mrcctl libmrc mpi

setup:
	@tests/vm/setup

kernel: setup
	@tests/vm/build-kernel >/dev/null

# KDIR defaults to the test kernel (built on first use, ~15 min)
modules: setup
	@if [ -n "$(KDIR)" ]; then kdir="$(KDIR)"; else \
		eval "$$(tests/vm/build-kernel)" && kdir=$$KDIR; fi; \
	tests/vm/kbuild "$$kdir" W=$(W)

distro: setup
	@tests/vm/kbuild /lib/modules/$(DISTRO_KVER)/build W=$(W)

distro61: setup
	@tests/vm/kbuild /lib/modules/$(DISTRO61_KVER)/build W=$(W)

sparse: setup
	@eval "$$(tests/vm/build-kernel)" && tests/vm/kbuild "$$KDIR" W=$(W) C=2

mrcctl: setup
	@$(MAKE) -s -C tools/mrcctl

libmrc: setup
	@$(MAKE) -s -C tools/lib/mrc

mpi: setup
	@$(MAKE) -s -C tests/mpi

deb: setup
	@tools/build-deb.sh

check:
	@tests/check --tier quick

check-full:
	@tests/check --tier full

coverage:
	@tests/check --tier $(TIER) --coverage

flake:
	@tests/check --tier $(TIER) --repeat $(N)

demo: setup
	@tests/demo

bench: setup
	@tests/bench/run

wireshark:
	@$(MAKE) -s -C tools/wireshark install

clean:
	rm -rf build .vm-out
	$(MAKE) -s -C tools/mrcctl clean
	$(MAKE) -s -C tools/lib/mrc clean
	$(MAKE) -s -C tests/mpi clean

help:
	@sed -n '3,34p' Makefile | sed 's/^# \{0,1\}//'
