# Build, install and uninstall settings. Everything goes under PREFIX (default /usr/local):
#   make                          builds the release binary (needs Swift)
#   make install [PREFIX=...] [DEFAULTS_LINK=1] [DESTDIR=...]
#                                 installs what `make` built, stripped, without building
#                                 (so `make && sudo make install` works when root has no swift)
#   make uninstall [PREFIX=...]   removes it again
#   make dist                     settings-VERSION-linux-ARCH.tar.gz and its .sha256: the
#                                 binary, man page, completions, README, LICENSE, install.sh
#   make deb                      settings_VERSION_ARCH.deb (scripts/deb.sh): the same, where
#                                 Debian keeps each, with `defaults` as an alternative
#   make generated                rewrites what is generated from the sources: completions/
#                                 and the man page embedded for `settings help --man`
#   make test                     the README's test command (swift test)
#   make check                    everything CI runs (.ci/run), ending in the test count
#   make fuzz [FUZZ_SECONDS=30]   each reader under libFuzzer (scripts/fuzz.sh)
#   make bench                    Benchmarks/run.sh, against git config, plistlib, Foundation
# `plutil` and `PlistBuddy` links are installed unless a program of that name is on PATH
# (APPLE_LINKS=0: never). DEFAULTS_LINK=1 also installs `defaults`, a link to settings, with its man page and
# completions, so scripts written for macOS defaults run unchanged. Where an installed
# shell does not look for completion under PREFIX, install says what to add (see
# scripts/install.sh).

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
BUILD := .build/release

VERSION := $(shell sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/settings/CLI/CLI.swift)
ARCH := $(shell uname -m)
DIST := settings-$(VERSION)-linux-$(ARCH)

.PHONY: all build test check format fuzz bench install uninstall dist deb generated
all: build

build:
	$(SWIFT) build -c release

test:
	$(SWIFT) test --parallel --num-workers 6 --disable-swift-testing

check:
	bash .ci/run

# Formats the Swift sources as .swift-format says; CI's lint fails on any difference.
format:
	$(SWIFT) format --in-place --recursive --parallel Sources Tests Package.swift Benchmarks/Package.swift Benchmarks/Sources Benchmarks/FoundationBaseline \
		Benchmarks/BigDocuments Fuzz

FUZZ_SECONDS ?= 30
fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

bench:
	Benchmarks/run.sh

$(BUILD)/settings:
	@echo "no $(BUILD)/settings: run 'make' (swift build -c release) first" >&2; exit 1

# scripts/install.sh installs (and uninstalls) both this tree and a release archive, and
# says what a shell needs where it does not look under PREFIX.
install: $(BUILD)/settings
	DESTDIR="$(DESTDIR)" DEFAULTS_LINK="$(DEFAULTS_LINK)" APPLE_LINKS="$(APPLE_LINKS)" sh scripts/install.sh "$(PREFIX)"

dist: $(BUILD)/settings
	rm -rf .build/$(DIST) .build/$(DIST).tar.gz
	install -d .build/$(DIST)/completions
	install -m 755 -s $(BUILD)/settings .build/$(DIST)/settings
	install -m 644 man/settings.1 README.md LICENSE .build/$(DIST)/
	install -m 644 completions/settings.bash completions/_settings completions/settings.fish .build/$(DIST)/completions/
	install -m 755 scripts/install.sh .build/$(DIST)/install.sh
	tar -C .build -czf $(DIST).tar.gz $(DIST)
	sha256sum $(DIST).tar.gz >$(DIST).tar.gz.sha256
	@echo "$(DIST).tar.gz"

deb: $(BUILD)/settings
	sh scripts/deb.sh $(BUILD)/settings

generated:
	python3 scripts/embed_man.py
	SETTINGS_RECORD_GOLDEN=1 $(SWIFT) test --disable-swift-testing --filter CompletionFilesTests

uninstall:
	DESTDIR="$(DESTDIR)" sh scripts/install.sh --uninstall "$(PREFIX)"
