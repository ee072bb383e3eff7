# rawcap — build, test and run. `make test` and `make demo` install what they need first (Debian + a venv).
SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
CONFIG ?= debug
VENV := .build/venv
PYTHON := $(VENV)/bin/python
DEBIAN_PACKAGES := libusb-1.0-0-dev libtiff-dev libraw-dev libturbojpeg0-dev \
	libimage-exiftool-perl libtiff-tools dcraw libraw-bin python3-venv libssl-dev
PYTHON_PACKAGES := numpy rawpy tifffile imagecodecs pidng
DEPS_STAMP := .build/deps.stamp

# Run apt-get as root directly, through sudo otherwise.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build release test demo bench fmt lint install clean record-golden

all: build

## deps: install the Debian packages and the Python test tools (rawpy, numpy, tifffile, PiDNG) into .build/venv.
deps: $(DEPS_STAMP)

$(DEPS_STAMP): Makefile
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages: $$missing"; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@mkdir -p .build
	@[ -x $(PYTHON) ] || python3 -m venv $(VENV)
	@$(PYTHON) -m pip install -q --disable-pip-version-check $(PYTHON_PACKAGES)
	@touch $@

## build: debug build of the rawcap binary.
build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

## test: install everything, then run the whole suite (interop tests included).
test: deps
	RAWCAP_PYTHON=$(abspath $(PYTHON)) $(SWIFT) test

## demo: render a frame and write it as DNG under captures/.
demo: deps
	$(SWIFT) build -c release --product rawcap
	./.build/release/rawcap demo -o captures

## bench: DNG encoding speed (benchmarks live in Benchmarks/, their own package).
bench: deps
	cd Benchmarks && $(SWIFT) run -c release RawcapBench

## record-golden: re-record the golden files under Fixtures/golden (review the diff before committing it).
record-golden:
	RAWCAP_RECORD=1 $(SWIFT) test --filter GoldenTests

## fmt: format the sources, then lint strictly.
fmt:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

## install: the binary under $(PREFIX)/bin.
install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 .build/release/rawcap $(DESTDIR)$(PREFIX)/bin/rawcap

clean:
	rm -rf .build captures
