# Build, install and uninstall settings. Everything goes under PREFIX (default /usr/local):
#   make install [PREFIX=...] [DEFAULTS_LINK=1] [DESTDIR=...]
#   make uninstall [PREFIX=...]
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

.PHONY: all build test install uninstall
all: build

build:
	$(SWIFT) build -c release

test:
	$(SWIFT) test --disable-swift-testing

install: build
	install -d $(bindir) $(man1dir) $(bashdir) $(zshdir) $(fishdir)
	install -m 755 $(BUILD)/settings $(bindir)/settings
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

uninstall:
	rm -f $(installed)
	for f in $(links); do if [ -L "$$f" ]; then rm -f "$$f"; fi; done
	# Remove the folders install created, once empty, up to but not including PREFIX.
	for d in $(bindir) $(man1dir) $(bashdir) $(zshdir) $(fishdir); do \
		while [ "$$d" != "$(root)" ] && rmdir "$$d" 2>/dev/null; do d=$$(dirname "$$d"); done; \
	done
