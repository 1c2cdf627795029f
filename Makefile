# SPDX-License-Identifier: GPL-2.0
#
# mrc: build the module and mrcctl, run the tests, run the demo.
#
#   make              mrc.ko (+ KUnit and guard modules) for the test kernel, and mrcctl
#   make KDIR=DIR     the same against another kernel build tree, e.g.
#                     KDIR=/lib/modules/6.12.117+deb12-amd64/build
#   make distro       modules against Debian's linux-headers-6.12-amd64
#   make check        everything, then every test in the VM; ends "N passed, M failed"
#   make demo         boots the VM and shows mrc devices on a two-namespace topology
#   make kernel       build (or find cached) the test kernel
#   make sparse       sparse (C=2) over the driver, for the test kernel
#   make setup        install the Debian packages the project needs
#
# Modules are built in build/<kernel release>/ (a tree of links to the sources),
# so builds for several kernels live side by side.

SHELL := /bin/bash
REPO := $(CURDIR)
W ?= 1

# Debian's own kernel: the newest installed 6.12 headers
DISTRO_KVER = $(notdir $(lastword $(sort $(wildcard /lib/modules/6.12*-amd64))))

.PHONY: all modules distro mrcctl kernel check demo sparse setup clean help bench

all: modules mrcctl

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

sparse: setup
	@eval "$$(tests/vm/build-kernel)" && tests/vm/kbuild "$$KDIR" W=$(W) C=2

mrcctl:
	@$(MAKE) -s -C tools/mrcctl

check:
	@tests/check

demo:
	@tests/demo

bench:
	@tests/bench/run

clean:
	rm -rf build .vm-out
	$(MAKE) -s -C tools/mrcctl clean

help:
	@sed -n '3,18p' Makefile | sed 's/^# \{0,1\}//'
