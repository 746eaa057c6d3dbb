#!/bin/sh
# shellcheck disable=SC2016 # the $ in the single-quoted fish commands are fish's
# Installs settings without a Swift toolchain, from a release archive (this folder) or from
# a source tree that `make` has built (`make install` runs this script):
#   ./install.sh [PREFIX]              PREFIX defaults to /usr/local, or ~/.local when that
#                                      is not writable; also PREFIX=... ./install.sh
#   ./install.sh --uninstall [PREFIX]  removes the files and links install put there, and
#                                      the folders it made (recorded in share/settings)
# DEFAULTS_LINK=1 also installs `defaults`, a link to settings, with its man page and
# completion. `plutil` and `PlistBuddy` links are installed the same way, unless a program
# of that name is already on PATH, which keeps its name (APPLE_LINKS=0: none). DESTDIR=/stage puts everything under /stage for a package and touches nothing
# outside it.
#
# The binary goes in PREFIX/bin, the man page in PREFIX/share/man/man1 (man finds it from
# PATH) and the completion scripts where bash, zsh and fish look under a prefix. Each shell
# that is installed is then asked whether it searches there with no configuration, as a
# console or SSH login starts it (no XDG_DATA_DIRS, no rc files). Where one does not, this
# says the one line to add to its rc file, except for fish with the default /usr/local:
# Debian's fish searches /usr/local only when XDG_DATA_DIRS names it, so the script is also
# linked into fish's folder for administrators (/etc/fish/completions).
set -eu

uninstall=0
if [ "${1:-}" = --uninstall ]; then uninstall=1; shift; fi
prefix=${1:-${PREFIX:-}}
if [ -z "$prefix" ]; then
    if [ -w /usr/local ] || [ "$(id -u)" -eq 0 ]; then prefix=/usr/local; else prefix=$HOME/.local; fi
fi
case $prefix in /*) ;; *) echo "install.sh: PREFIX must be an absolute path, not $prefix" >&2; exit 2 ;; esac
prefix=${prefix%/}
destdir=${DESTDIR:-}
root=$destdir$prefix
bindir=$root/bin
man1dir=$root/share/man/man1
bashdir=$root/share/bash-completion/completions
zshdir=$root/share/zsh/site-functions
fishdir=$root/share/fish/vendor_completions.d

# $1 as it must be typed in a shell's rc file: single-quoted when it holds anything but
# the characters paths usually have.
quoted() {
    case $1 in
        *[!A-Za-z0-9/._+@%,=-]*) printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
        *) printf '%s' "$1" ;;
    esac
}

# Runs fish with no rc files and a scratch config folder, so asking leaves nothing behind
# (fish makes its config folder when it starts).
ask_fish() {
    scratch=$(mktemp -d)
    env -u XDG_DATA_DIRS XDG_CONFIG_HOME="$scratch" fish --no-config -c "$1" 2>/dev/null
    rc=$?
    rm -rf "$scratch"
    return $rc
}

# fish's folder for administrators (/etc/fish/completions), when fish is installed.
fish_admin_dir() {
    command -v fish >/dev/null 2>&1 || return 1
    dir=$(ask_fish 'echo $__fish_sysconf_dir') && [ -n "$dir" ] && echo "$dir/completions"
}

if [ "$uninstall" -eq 1 ]; then
    rm -f "$bindir/settings" "$man1dir/settings.1" "$bashdir/settings" "$zshdir/_settings" "$fishdir/settings.fish"
    for name in defaults plutil PlistBuddy; do
        for f in "$bindir/$name" "$man1dir/$name.1" "$bashdir/$name" "$fishdir/$name.fish"; do
            if [ -L "$f" ]; then rm -f "$f"; fi
        done
    done
    # The links a system-wide install made for fish, if they still point at this PREFIX.
    if [ -z "$destdir" ] && admin=$(fish_admin_dir); then
        for name in settings defaults plutil PlistBuddy; do
            if [ -L "$admin/$name.fish" ] && [ "$(readlink "$admin/$name.fish")" = "$fishdir/$name.fish" ]; then
                rm -f "$admin/$name.fish"
            fi
        done
    fi
    # The folders this install made, as it recorded them, go too when they are empty,
    # deepest first; a folder that was there before (an empty /usr/local/bin may be the
    # system's) is not in the record and stays.
    record=$root/share/settings/installed-folders
    if [ -f "$record" ]; then
        folders=$(sort -r "$record")
        rm -f "$record"
        printf '%s\n' "$folders" | while IFS= read -r folder; do
            case $folder in "$root"/* | "$root") rmdir "$folder" 2>/dev/null || true ;; esac
        done
    fi
    echo "removed settings from $prefix"
    exit 0
fi

here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$here/settings.1" ]; then
    # A release archive: the binary is already stripped (and strip may not be installed).
    binary=$here/settings page=$here/settings.1 completions=$here/completions strip=
else
    # scripts/ in a source tree, beside .build/, man/ and completions/.
    tree=$(dirname "$here")
    binary=$tree/.build/release/settings page=$tree/man/settings.1 completions=$tree/completions strip=-s
    [ -x "$binary" ] || { echo "install.sh: no $binary: run 'make' (swift build -c release) first" >&2; exit 1; }
fi

# The folders about to be made, so --uninstall can remove them again and no other (a
# package, under DESTDIR, leaves its folders to dpkg).
made=
if [ -z "$destdir" ]; then
    for folder in "$bindir" "$man1dir" "$bashdir" "$zshdir" "$fishdir" "$root/share/settings"; do
        while [ ! -e "$folder" ]; do
            made="$made$folder
"
            folder=$(dirname "$folder")
        done
    done
fi
install -d "$bindir" "$man1dir" "$bashdir" "$zshdir" "$fishdir"
if [ -z "$destdir" ]; then
    install -d "$root/share/settings"
    record=$root/share/settings/installed-folders
    { [ ! -f "$record" ] || cat "$record"; printf '%s' "$made"; } | sort -u | sed '/^$/d' >"$record.new"
    mv "$record.new" "$record"
fi
install -m 755 $strip "$binary" "$bindir/settings"
install -m 644 "$page" "$man1dir/settings.1"
install -m 644 "$completions/settings.bash" "$bashdir/settings"
install -m 644 "$completions/_settings" "$zshdir/_settings"
install -m 644 "$completions/settings.fish" "$fishdir/settings.fish"
names=settings
if [ "${DEFAULTS_LINK:-0}" = 1 ]; then
    # _settings declares `#compdef settings defaults`; the others are found by name.
    ln -sf settings "$bindir/defaults"
    ln -sf settings.1 "$man1dir/defaults.1"
    ln -sf settings "$bashdir/defaults"
    ln -sf settings.fish "$fishdir/defaults.fish"
    names="settings defaults"
fi
if [ "${APPLE_LINKS:-1}" = 1 ]; then
    # At low priority: a plutil already on PATH (the Swift toolchain's, say) keeps its name.
    for name in plutil PlistBuddy; do
        found=$(command -v "$name" 2>/dev/null || true)
        if [ -z "$destdir" ] && [ -n "$found" ] && [ "$found" != "$bindir/$name" ]; then
            echo "not linking $name: $found is there"
            continue
        fi
        ln -sf settings "$bindir/$name"
        ln -sf settings.1 "$man1dir/$name.1"
        ln -sf settings "$bashdir/$name"
        ln -sf settings.fish "$fishdir/$name.fish"
        names="$names $name"
    done
fi
echo "installed settings in $bindir"
[ -z "$destdir" ] || exit 0

case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "add $prefix/bin to PATH" ;; esac

# bash-completion loads from $XDG_DATA_HOME and $XDG_DATA_DIRS, by default ~/.local/share,
# /usr/local/share and /usr/share.
case $prefix/share in
    /usr/local/share | /usr/share | "${XDG_DATA_HOME:-$HOME/.local/share}") ;;
    *) echo "bash does not look in $bashdir; add to ~/.bashrc: source $(quoted "$bashdir/settings")" ;;
esac

if command -v zsh >/dev/null 2>&1 && ! zsh -f -c 'print -rl -- $fpath' 2>/dev/null | grep -qxF "$zshdir"; then
    echo "zsh does not look in $zshdir; add to ~/.zshrc, before compinit: fpath=($(quoted "$zshdir") \$fpath)"
fi

if command -v fish >/dev/null 2>&1 &&
    ! ask_fish 'source $__fish_data_dir/config.fish; printf "%s\n" $fish_complete_path' | grep -qxF "$fishdir"; then
    admin=
    [ "$prefix" != /usr/local ] || admin=$(fish_admin_dir) || admin=
    if [ -n "$admin" ] && install -d "$admin" 2>/dev/null && [ -w "$admin" ]; then
        for name in $names; do ln -sf "$fishdir/$name.fish" "$admin/$name.fish"; done
        echo "fish does not look in $fishdir; linked $admin/settings.fish to it"
    else
        echo "fish does not look in $fishdir; add to ~/.config/fish/config.fish: set -p fish_complete_path $(quoted "$fishdir")"
    fi
fi
