# Build, install and uninstall settings. Everything goes under PREFIX (default /usr/local):
#   make                          builds the release binary (needs Swift)
#   make install [PREFIX=...] [DEFAULTS_LINK=1] [DESTDIR=...]
#                                 installs what `make` built, stripped, without building
#                                 (so `make && sudo make install` works when root has no swift)
#   make uninstall [PREFIX=...]
#   make dist                     settings-VERSION-linux-ARCH.tar.gz and its .sha256: the
#                                 binary, man page, completions, README, LICENSE, install.sh
# DEFAULTS_LINK=1 also installs `defaults`, a link to settings, with its man page and
# completions, so scripts written for macOS defaults run unchanged.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
BUILD := .build/release

root := $(DESTDIR)$(PREFIX)
bindir := $(root)/bin
man1dir := $(root)/share/man/man1
bashdir := $(root)/share/bash-completion/completions
zshdir := $(root)/share/zsh/site-functions
fishdir := $(root)/share/fish/vendor_completions.d

installed := $(bindir)/settings $(man1dir)/settings.1 $(bashdir)/settings $(zshdir)/_settings $(fishdir)/settings.fish
links := $(bindir)/defaults $(man1dir)/defaults.1 $(bashdir)/defaults $(fishdir)/defaults.fish

VERSION := $(shell sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/settings/CLI/CLI.swift)
ARCH := $(shell uname -m)
DIST := settings-$(VERSION)-linux-$(ARCH)

.PHONY: all build test install uninstall dist
all: build

build:
	$(SWIFT) build -c release

test:
	$(SWIFT) test --disable-swift-testing

$(BUILD)/settings:
	@echo "no $(BUILD)/settings: run 'make' (swift build -c release) first" >&2; exit 1

install: $(BUILD)/settings
	install -d $(bindir) $(man1dir) $(bashdir) $(zshdir) $(fishdir)
	install -m 755 -s $(BUILD)/settings $(bindir)/settings
	install -m 644 man/settings.1 $(man1dir)/settings.1
	install -m 644 completions/settings.bash $(bashdir)/settings
	install -m 644 completions/_settings $(zshdir)/_settings
	install -m 644 completions/settings.fish $(fishdir)/settings.fish
ifeq ($(DEFAULTS_LINK),1)
	ln -sf settings $(bindir)/defaults
	ln -sf settings.1 $(man1dir)/defaults.1
	ln -sf settings $(bashdir)/defaults
	ln -sf settings.fish $(fishdir)/defaults.fish
endif
	@case "$(PREFIX)" in /usr|/usr/local) ;; *) \
		echo "zsh: add $(PREFIX)/share/zsh/site-functions to fpath, or eval \"\$$(settings completion zsh)\" in ~/.zshrc"; \
		echo "fish: add $(PREFIX)/share to XDG_DATA_DIRS, or settings completion fish | source in config.fish";; esac

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

uninstall:
	rm -f $(installed)
	for f in $(links); do if [ -L "$$f" ]; then rm -f "$$f"; fi; done
	# Remove the folders install created, once empty, up to but not including PREFIX.
	for d in $(bindir) $(man1dir) $(bashdir) $(zshdir) $(fishdir); do \
		while [ "$$d" != "$(root)" ] && rmdir "$$d" 2>/dev/null; do d=$$(dirname "$$d"); done; \
	done
