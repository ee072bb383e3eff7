# rawcap — build, test and run. `make test` and `make demo` install what they need first (Debian + a venv).
SHELL := /bin/bash
PREFIX ?= /usr/local
SWIFT ?= swift
CONFIG ?= debug
VENV := .build/venv
PYTHON := $(VENV)/bin/python
# tshark reads recordings back in the tests; its debconf question (may non-root users capture?) takes its default,
# no, under DEBIAN_FRONTEND=noninteractive below.
DEBIAN_PACKAGES := libusb-1.0-0-dev libtiff-dev libraw-dev libturbojpeg0-dev \
	libimage-exiftool-perl libtiff-tools dcraw libraw-bin python3-venv libssl-dev umockdev libumockdev-dev gphoto2 \
	tshark groff-base time jq chromium chromium-driver
PYTHON_PACKAGES := numpy rawpy tifffile pidng imagecodecs selenium
DEPS_STAMP := .build/deps.stamp

# Run apt-get as root directly, through sudo otherwise.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Fuzzing (Fuzz/ is its own package): each target in FUZZ_TARGETS is an executable product there, with its seed
# corpus in Fuzz/corpus/<target>/. New inputs go to Fuzz/.build/fuzz-corpus/<target>/, findings (crash-*, leak-*,
# timeout-*, oom-*) to Fuzz/.build/findings/<target>-*.
FUZZ_TARGETS := FuzzPTPContainers FuzzPTPIP FuzzPTPDatasets FuzzPTPTransport FuzzLJ92 FuzzPcap FuzzRawFile FuzzLibRaw
FUZZ_SECONDS ?= 600
FUZZ_ARGS ?= -timeout=10 -rss_limit_mb=2048
# SwiftPM passes --sanitize=fuzzer and --sanitize=address to swiftc as two -sanitize= flags and swiftc 6.3.1 keeps
# only the last one when compiling: the code gets ASan but no coverage counters. -sanitize=address,fuzzer last
# restores both. --disable-dead-strip: release builds link with --gc-sections, and lld then drops the
# __sancov_cntrs/__sancov_pcs sections (only reached through __start_/__stop_ symbols).
FUZZ_BUILD_FLAGS := -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=address,fuzzer \
	-Xswiftc -use-ld=lld --disable-dead-strip

.PHONY: all deps build release test smoke demo bench bench-peers bench-lossless fault-matrix soak fuzz fuzz-seeds fmt lint install clean record-golden \
	real-cameras

all: build

## deps: install the Debian packages and the Python test tools (rawpy, numpy, tifffile, PiDNG, imagecodecs, Selenium
## for the live page's browser test with Debian's Chromium) into .build/venv. imagecodecs brings libjpeg-turbo 3
## (lossless JPEG), liblj92 and jpegsof3: independent LJ92 oracles.
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

## test: install everything, run the whole suite (interop tests included), then the release binary's smoke test.
## When a test fails, the log's failing lines are printed again at the end (Tests/CI/failure-summary.sh): CI keeps
## only the last lines of a run.
# Suites that measure time against the emulated camera's own timers (bulb hold times, idle sleeps, reconnect
# schedules, answer latency): they run after the rest, one test at a time, so the two cores are not shared with
# every other suite while they measure. Every test still runs in `make test`.
TIMED_SUITES := ReconnectTests|ReconnectBinaryTests|ReconnectCommandTests|PresenceFaultTests|BulbExposureTests|BulbCommandTests|SimServeBinaryTests|ShortSoakTests|TetherBinaryTests

test: deps
	@set -o pipefail; RAWCAP_PYTHON=$(abspath $(PYTHON)) $(SWIFT) test --skip '$(TIMED_SUITES)' 2>&1 \
		| tee .build/test.log || { status=$$?; Tests/CI/failure-summary.sh .build/test.log; exit $$status; }
	@set -o pipefail; RAWCAP_PYTHON=$(abspath $(PYTHON)) $(SWIFT) test --skip-build --no-parallel \
		--filter '$(TIMED_SUITES)' 2>&1 | tee .build/test-timed.log \
		|| { status=$$?; Tests/CI/failure-summary.sh .build/test-timed.log; exit $$status; }
	$(MAKE) smoke

## smoke: the optimized binary end to end, its raw pixels compared with the debug binary's (Tests/Smoke).
smoke:
	$(SWIFT) build --product rawcap
	$(SWIFT) build -c release --product rawcap
	Tests/Smoke/release-smoke.sh .build/release/rawcap .build/debug/rawcap

## real-cameras: replay every real camera's recorded session (Fixtures/traces, imported debug logs in real/) through
## the production drivers, in memory; print the conformance table, write it to docs/real-cameras.md, and fail when a
## stage does worse than the committed table (RawcapCLITests/RealCameraConformanceTests runs the same check).
real-cameras:
	$(SWIFT) build --product rawcap
	./.build/debug/rawcap replay check --against docs/real-cameras.md --write docs/real-cameras.md Fixtures/traces

## demo: shoot three RAW+JPEG frames (lossless DNG) from the emulated camera into captures/ and list them.
demo: deps
	$(SWIFT) build -c release --product rawcap
	./.build/release/rawcap shoot --camera sim --count 3 --keep-jpeg --compression lossless -o captures

## bench: DNG encoding speed (benchmarks live in Benchmarks/, their own package).
bench: deps
	cd Benchmarks && $(SWIFT) run -c release RawcapBench

## bench-peers: rawcap against PiDNG and gphoto2 (DNG encoding, PTP/IP downloads, shot to disk) and the plain
## copy/write limits, in one run on the emulated camera; prints a Markdown table (Benchmarks/peers.py).
bench-peers: deps
	$(SWIFT) build -c release --product rawcap
	cd Benchmarks && $(SWIFT) build -c release --product RawcapBench
	RAWCAP_PYTHON=$(abspath $(PYTHON)) RAWCAP_BENCH=$(abspath Benchmarks/.build/release/RawcapBench) \
		Benchmarks/peers.sh .build/release/rawcap $(PEERS_ARGS)

## bench-lossless: `rawcap convert` lossless against uncompressed for 12-100 MP frames from the emulated camera,
## alternated run by run: page faults, ms per megapixel, peak RSS, edge-tile bytes (Benchmarks/lossless.py;
## LOSSLESS_ARGS, e.g. "--sizes 24 --runs 9"); fails when lossless takes over 1.3x the faults.
bench-lossless:
	$(SWIFT) build -c release --product rawcap
	@echo "Load before: $$(cut -d' ' -f1-3 /proc/loadavg)"
	python3 Benchmarks/lossless.py --rawcap .build/release/rawcap --edge-tiles $(LOSSLESS_ARGS)
	@echo "Load after: $$(cut -d' ' -f1-3 /proc/loadavg)"

## fault-matrix: the release rawcap against every emulated fault, over USB framing and PTP/IP, plus disk full, a
## read-only folder and Ctrl-C; prints a Markdown table, fails on a defect (Tests/FaultMatrix).
fault-matrix:
	$(SWIFT) build -c release --product rawcap
	Tests/FaultMatrix/fault-matrix.sh .build/release/rawcap

## soak: 2,000 RAW+JPEG frames from `rawcap sim serve` over PTP/IP in one `shoot --reconnect --interval 100ms`, a
## fault every 100 shots (sleeps and power cycles included); every frame on disk exactly once or shot-missed,
## memory flat (Tests/Soak; SOAK_ARGS for more).
soak:
	$(SWIFT) build -c release --product rawcap
	Tests/Soak/soak.sh .build/release/rawcap $(SOAK_ARGS)

## fuzz: build each fuzz target with libFuzzer and AddressSanitizer, run it for FUZZ_SECONDS (default 600) on its
## seed corpus; stops at the first finding.
# SwiftPM keeps its build plan for the path dependency on rawcap and misses source files added since, so the
# plan is removed first.
fuzz:
	@rm -f Fuzz/.build/release.yaml
	@set -e; for target in $(FUZZ_TARGETS); do \
		(cd Fuzz && $(SWIFT) build $(FUZZ_BUILD_FLAGS) --product $$target); \
		if [ $$target = FuzzLibRaw ]; then $(SWIFT) build -c release --product rawcap; fi; \
		mkdir -p Fuzz/.build/fuzz-corpus/$$target Fuzz/.build/findings; \
		echo "== $$target for $(FUZZ_SECONDS) s"; \
		RAWCAP_DECODE_WORKER=$(abspath .build/release/rawcap) \
		SWIFT_BACKTRACE=enable=no Fuzz/.build/release/$$target -max_total_time=$(FUZZ_SECONDS) $(FUZZ_ARGS) \
			-print_final_stats=1 -artifact_prefix=Fuzz/.build/findings/$$target- \
			Fuzz/.build/fuzz-corpus/$$target Fuzz/corpus/$$target; \
	done

## fuzz-seeds: regenerate the committed seed corpora (deterministic) with Fuzz's FuzzSeeds tool.
fuzz-seeds:
	cd Fuzz && $(SWIFT) build --product FuzzSeeds
	@for target in $(FUZZ_TARGETS); do Fuzz/.build/debug/FuzzSeeds $$target Fuzz/corpus/$$target; done

## record-golden: re-record the golden files under Fixtures/golden (review the diff before committing it).
record-golden:
	RAWCAP_RECORD=1 $(SWIFT) test --filter GoldenTests

## fmt: format the sources, then lint strictly.
fmt:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

## install: the binary, the manual page, bash/zsh/fish completions and the udev rule (for the plugdev group), all
## under PREFIX (default /usr/local), staged under DESTDIR when given; the udev rule goes to UDEV_RULES_DIR
## (default PREFIX/lib/udev/rules.d, where udev reads it for PREFIX=/usr). `make install-udev` puts it where udev
## reads it whatever the PREFIX, SYSTEM_UDEV_RULES_DIR (/etc/udev/rules.d), and reloads udev. `make uninstall`
## removes what `make install` put (same PREFIX, DESTDIR and UDEV_RULES_DIR), `make uninstall-udev` the system rule.
## INSTALL_BUILD=0 installs what .build/$(INSTALL_CONFIG) holds without building (the install test does that, inside
## `swift test`, which holds the build lock).
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(PREFIX)/share/zsh/site-functions
FISH_COMPLETION_DIR ?= $(PREFIX)/share/fish/vendor_completions.d
UDEV_RULES_DIR ?= $(PREFIX)/lib/udev/rules.d
SYSTEM_UDEV_RULES_DIR ?= /etc/udev/rules.d
UDEV_RULE := 60-rawcap.rules
INSTALL_CONFIG ?= release
INSTALL_BUILD ?= 1
RAWCAP_BIN = .build/$(INSTALL_CONFIG)/rawcap
MAN_DIR_BUILT := .build/man
INSTALLED_FILES = $(DESTDIR)$(BINDIR)/rawcap $(DESTDIR)$(MANDIR)/man1/rawcap.1 \
	$(DESTDIR)$(BASH_COMPLETION_DIR)/rawcap $(DESTDIR)$(ZSH_COMPLETION_DIR)/_rawcap \
	$(DESTDIR)$(FISH_COMPLETION_DIR)/rawcap.fish $(DESTDIR)$(UDEV_RULES_DIR)/$(UDEV_RULE)

.PHONY: install-build man man-debug install-udev udev-reload uninstall uninstall-udev

## man: the manual page, .build/man/rawcap.1, from swift-argument-parser's generate-manual plugin (offline: the
## plugin and its tool come from the package's own checkouts).
## The generated page ends with a bare EXIT STATUS section: it is replaced by Packaging/man/sections.mdoc
## (ENVIRONMENT, FILES, EXIT STATUS, EXAMPLES, SEE ALSO).
man:
	$(SWIFT) package plugin generate-manual --configuration $(INSTALL_CONFIG)
	install -d $(MAN_DIR_BUILT)
	sed '/^\.Sh "\{0,1\}EXIT STATUS"\{0,1\}$$/,$$d' .build/plugins/GenerateManual/outputs/rawcap/rawcap.1 \
		> $(MAN_DIR_BUILT)/rawcap.1.tmp
	cat Packaging/man/sections.mdoc >> $(MAN_DIR_BUILT)/rawcap.1.tmp
	mv $(MAN_DIR_BUILT)/rawcap.1.tmp $(MAN_DIR_BUILT)/rawcap.1

# `make test` makes the debug manual page first: the install test installs it, and cannot build it itself (it runs
# inside `swift test`, which holds the build lock).
test: man-debug

man-debug:
	$(MAKE) man INSTALL_CONFIG=debug

install-build:
	$(SWIFT) build -c $(INSTALL_CONFIG) --product rawcap
	$(MAKE) man

install: $(if $(filter 1,$(INSTALL_BUILD)),install-build)
	@[ -x $(RAWCAP_BIN) ] || { echo "$(RAWCAP_BIN) is not built"; exit 1; }
	@[ -f $(MAN_DIR_BUILT)/rawcap.1 ] || { echo "$(MAN_DIR_BUILT)/rawcap.1 is missing: run make man"; exit 1; }
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASH_COMPLETION_DIR) \
		$(DESTDIR)$(ZSH_COMPLETION_DIR) $(DESTDIR)$(FISH_COMPLETION_DIR) $(DESTDIR)$(UDEV_RULES_DIR)
	install -m 755 $(RAWCAP_BIN) $(DESTDIR)$(BINDIR)/rawcap
	install -m 644 $(MAN_DIR_BUILT)/rawcap.1 $(DESTDIR)$(MANDIR)/man1/rawcap.1
	$(RAWCAP_BIN) --generate-completion-script bash > $(DESTDIR)$(BASH_COMPLETION_DIR)/rawcap
	$(RAWCAP_BIN) --generate-completion-script zsh > $(DESTDIR)$(ZSH_COMPLETION_DIR)/_rawcap
	$(RAWCAP_BIN) --generate-completion-script fish > $(DESTDIR)$(FISH_COMPLETION_DIR)/rawcap.fish
	install -m 644 Packaging/udev/$(UDEV_RULE) $(DESTDIR)$(UDEV_RULES_DIR)/$(UDEV_RULE)
	@case "$(UDEV_RULES_DIR)" in \
		/etc/udev/rules.d|/usr/lib/udev/rules.d|/lib/udev/rules.d) \
			if [ -z "$(DESTDIR)" ]; then $(MAKE) --no-print-directory udev-reload; fi ;; \
		*) if [ -z "$(DESTDIR)" ]; then echo "udev does not read $(UDEV_RULES_DIR): for the plugdev group" \
			"to open cameras, run sudo make install-udev"; fi ;; \
	esac

## install-udev: the udev rule where udev reads it (SYSTEM_UDEV_RULES_DIR, /etc/udev/rules.d), then reload udev.
install-udev:
	install -d $(DESTDIR)$(SYSTEM_UDEV_RULES_DIR)
	install -m 644 Packaging/udev/$(UDEV_RULE) $(DESTDIR)$(SYSTEM_UDEV_RULES_DIR)/$(UDEV_RULE)
	@if [ -z "$(DESTDIR)" ]; then $(MAKE) --no-print-directory udev-reload; fi

udev-reload:
	@if command -v udevadm >/dev/null; then \
		{ udevadm control --reload-rules && udevadm trigger --subsystem-match=usb --action=change; } 2>/dev/null \
		|| echo "udev is not running here: reload the rules later (udevadm control --reload-rules)"; \
	fi

uninstall:
	rm -f $(INSTALLED_FILES)

uninstall-udev:
	rm -f $(DESTDIR)$(SYSTEM_UDEV_RULES_DIR)/$(UDEV_RULE)
	@if [ -z "$(DESTDIR)" ]; then $(MAKE) --no-print-directory udev-reload; fi

clean:
	rm -rf .build captures
