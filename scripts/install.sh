#!/bin/sh
# Installs settings from this folder (a release archive) without a Swift toolchain.
#   ./install.sh [PREFIX]       PREFIX defaults to /usr/local, or ~/.local when that is
#                               not writable; also: PREFIX=... ./install.sh
# Puts the binary in PREFIX/bin, the man page in PREFIX/share/man/man1 and the
# completion scripts where bash, zsh and fish look under PREFIX, then says what a shell
# needs to find them when PREFIX is not one it searches.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${1:-${PREFIX:-}}
if [ -z "$prefix" ]; then
    if [ -w /usr/local ] || [ "$(id -u)" -eq 0 ]; then prefix=/usr/local; else prefix=$HOME/.local; fi
fi
install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
    "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 755 "$here/settings" "$prefix/bin/settings"
install -m 644 "$here/settings.1" "$prefix/share/man/man1/settings.1"
install -m 644 "$here/completions/settings.bash" "$prefix/share/bash-completion/completions/settings"
install -m 644 "$here/completions/_settings" "$prefix/share/zsh/site-functions/_settings"
install -m 644 "$here/completions/settings.fish" "$prefix/share/fish/vendor_completions.d/settings.fish"
echo "installed settings in $prefix/bin"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "add $prefix/bin to PATH" ;; esac
if [ "$prefix" != /usr/local ] && [ "$prefix" != /usr ]; then
    echo "completion: or add to ~/.bashrc: eval \"\$(settings completion bash)\" (zsh and fish likewise, see settings(1))"
fi
