#!/usr/bin/env bash
# The Debian package end to end, as a user meets it: `make deb`, `apt-get install ./….deb`
# on this machine, the README's first example with the installed binary, `man settings`,
# bash completion as bash-completion loads it, `defaults` through update-alternatives; then
# `apt-get remove`, after which nothing the package put on the file system is left.
# Needs root and apt-get (CI); elsewhere it says so and counts one check skipped.
# Prints "deb: N passed, M failed, K skipped".
cd "$(dirname "$0")/../.." || exit 1
passed=0 failed=0 skipped=0
check() { # NAME CONDITION...
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "ok   $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}
finish() { echo "deb: $passed passed, $failed failed, $skipped skipped"; [ "$failed" -eq 0 ]; }
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null || dpkg -s settings >/dev/null 2>&1; then
    skipped=1
    echo "skip deb: installing a package needs root and apt-get, and no settings package installed"
    finish
    exit
fi
work=$(mktemp -d)
trap 'apt-get remove -y -qq settings >/dev/null 2>&1; rm -rf "$work"' EXIT

package=$(make -s deb | tail -n 1)
check "make deb builds a package" test -f "$package"
check "the package depends on nothing" sh -c "! dpkg-deb -f '$package' Depends Pre-Depends | grep -q ."
mv "$package" "$work/"
out=$(apt-get install -y -qq "$work/$package" 2>&1) || echo "$out"
check "apt-get install takes it" sh -c "dpkg -s settings >/dev/null"
files=$(dpkg -L settings)

# The README's first example, with the installed binary.
export XDG_CONFIG_HOME=$work/config
check "the installed binary writes and reads" sh -c \
    'settings write com.example.app music -bool true && test "$(settings read com.example.app)" = "{
    music = 1;
}"'
check "it is the package's" test "$(command -v settings)" = /usr/bin/settings
check "defaults is an alternative for settings" test "$(readlink -f /usr/bin/defaults)" = /usr/bin/settings
check "defaults names itself" test "$(defaults read com.none 2>&1)" = "defaults: Domain com.none does not exist"
check "plutil is an alternative for settings" test "$(readlink -f /usr/bin/plutil)" = /usr/bin/settings
check "PlistBuddy is an alternative for settings" test "$(readlink -f /usr/bin/PlistBuddy)" = /usr/bin/settings
check "PlistBuddy edits a file" sh -c 'cd "$0" && /usr/bin/PlistBuddy -c "Add :CFBundleVersion string 42" Info.plist >/dev/null &&
    test "$(/usr/bin/plutil -extract CFBundleVersion raw Info.plist)" = 42' "$work"
check "man settings finds the page" sh -c 'MANPAGER=cat man settings 2>/dev/null | grep -q "EXIT STATUS"'
check "man defaults finds the page" sh -c 'MANPAGER=cat man defaults 2>/dev/null | grep -q "SYNOPSIS"'
complete_line() { # COMMAND LINE: bash's candidates, as bash-completion loads the script
    env -i HOME="$work" PATH=/usr/bin:/bin XDG_CONFIG_HOME="$XDG_CONFIG_HOME" bash --norc -c '
        source /usr/share/bash-completion/bash_completion
        read -ra COMP_WORDS <<<"$1"; [[ $1 == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
        _completion_loader "${COMP_WORDS[0]}"
        _settings "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf "%s\n" "${COMPREPLY[@]}"' _ "$1"
}
check "bash completes keys" grep -qx music <<<"$(complete_line 'settings read com.example.app ')"
check "bash completes for defaults" grep -qx music <<<"$(complete_line 'defaults read com.example.app ')"
check "zsh's completion is where Debian's zsh looks" \
    sh -c 'zsh -fc "print -l \$fpath" 2>/dev/null | grep -qx /usr/share/zsh/vendor-completions || ! command -v zsh >/dev/null'
check "fish finds its completion" sh -c '! command -v fish >/dev/null ||
    env -i HOME='"$work"' PATH=/usr/bin:/bin fish -c "complete -C \"settings wri\"" | grep -q "^write"'

apt-get remove -y -qq settings >/dev/null 2>&1
check "apt-get remove takes it away" sh -c '! dpkg -s settings 2>/dev/null | grep -q "^Status: install ok"'
left=""
while IFS= read -r path; do
    # Folders the package shares with others (/usr/bin) stay, as they should.
    [ -d "$path" ] && [ ! -L "$path" ] && continue
    if [ -e "$path" ] || [ -L "$path" ]; then left="$left $path"; fi
done <<<"$files"
check "nothing the package installed is left${left:+:$left}" test -z "$left"
check "the defaults alternative is gone" sh -c '[ ! -e /usr/bin/defaults ] && [ ! -L /usr/bin/defaults ] &&
    [ ! -e /etc/alternatives/defaults ] && ! update-alternatives --query defaults >/dev/null 2>&1'
check "the plutil and PlistBuddy alternatives are gone" sh -c '[ ! -e /usr/bin/plutil ] && [ ! -L /usr/bin/PlistBuddy ] &&
    ! update-alternatives --query plutil >/dev/null 2>&1 && ! update-alternatives --query PlistBuddy >/dev/null 2>&1'
check "no empty folder of its own is left" sh -c '! [ -d /usr/share/doc/settings ]'
finish
