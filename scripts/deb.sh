#!/bin/sh
# Builds settings_VERSION_ARCH.deb from the release build with dpkg-deb: the static,
# stripped binary (no dependency: no Swift runtime, not even libc), the man page, completion
# for bash, zsh and fish where Debian's shells look, `defaults`, `plutil` and `PlistBuddy` as alternatives
# (update-alternatives, with its man page as a slave link), and LICENSE as the copyright
# file. Prints the package's file name. Usage: scripts/deb.sh [BINARY]
set -eu
cd "$(dirname "$0")/.."
binary=${1:-.build/release/settings}
[ -x "$binary" ] || { echo "deb: no $binary: run 'make' first" >&2; exit 1; }
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/settings/CLI/CLI.swift)
arch=$(dpkg --print-architecture)
package=settings_${version}_${arch}.deb
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$root/usr/share/doc/settings" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d"
install -m 755 -s "$binary" "$root/usr/bin/settings"
gzip -9n <man/settings.1 >"$root/usr/share/man/man1/settings.1.gz"
install -m 644 LICENSE "$root/usr/share/doc/settings/copyright"
install -m 644 completions/settings.bash "$root/usr/share/bash-completion/completions/settings"
install -m 644 completions/_settings "$root/usr/share/zsh/vendor-completions/_settings"
install -m 644 completions/settings.fish "$root/usr/share/fish/vendor_completions.d/settings.fish"
# bash-completion and fish load completion by the command's name; zsh's #compdef names both.
for name in defaults plutil PlistBuddy; do
    ln -s settings "$root/usr/share/bash-completion/completions/$name"
    ln -s settings.fish "$root/usr/share/fish/vendor_completions.d/$name.fish"
done
chmod -R u=rwX,go=rX "$root/usr"

cat >"$root/DEBIAN/control" <<CONTROL
Package: settings
Version: $version
Architecture: $arch
Maintainer: settings developers <settings@example.invalid>
Installed-Size: $(du -sk "$root/usr" | cut -f1)
Section: utils
Priority: optional
Description: the defaults of Linux: read, write and watch settings
 A drop-in for macOS defaults: the same verbs, value syntax, output and
 messages, on the property-list files Foundation's UserDefaults keeps in
 ~/.config on Linux, with atomic, locked writes, JSON, watch and schemas.
 Also installs defaults, and Apple's plutil and PlistBuddy, through
 update-alternatives (the last two at low priority).
CONTROL
# `defaults` is an alternative, so another package may provide it too.
cat >"$root/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
    update-alternatives --install /usr/bin/defaults defaults /usr/bin/settings 50 \
        --slave /usr/share/man/man1/defaults.1.gz defaults.1.gz /usr/share/man/man1/settings.1.gz
    # Low priority: a plutil or PlistBuddy another package provides keeps the name, and a
    # file of that name not managed by alternatives is left alone (update-alternatives
    # says so and does not replace it).
    for name in plutil PlistBuddy; do
        update-alternatives --install "/usr/bin/$name" "$name" /usr/bin/settings 10 \
            --slave "/usr/share/man/man1/$name.1.gz" "$name.1.gz" /usr/share/man/man1/settings.1.gz
    done
fi
SCRIPT
cat >"$root/DEBIAN/prerm" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = remove ] || [ "$1" = deconfigure ]; then
    update-alternatives --remove defaults /usr/bin/settings
    update-alternatives --remove plutil /usr/bin/settings
    update-alternatives --remove PlistBuddy /usr/bin/settings
fi
SCRIPT
chmod 755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm"
dpkg-deb --root-owner-group -Zxz --build "$root" "$package" >/dev/null
echo "$package"
