#!/usr/bin/env bash
# Debian's Puppet applies a manifest of osx_defaults resources (modules/osx_defaults, a
# define in the manner of boxen's) through `settings` standing in as /usr/bin/defaults: the
# first `puppet apply --detailed-exitcodes` exits 2 (changes), the second 0 (none), and
# plistlib finds the values and types. The define hard-codes /usr/bin/defaults, so the
# binary is mounted there in a private mount namespace: bound over the file where one
# exists, or through a read-only overlay on /usr/bin where none does. Needs root.
# Usage: Tests/puppet/run.sh SETTINGS_BINARY [PUPPET]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
settings=$(realpath "$1")
puppet=$(command -v "${2:-puppet}")

if [ -z "${SETTINGS_PUPPET_NAMESPACE:-}" ]; then
    export SETTINGS_PUPPET_NAMESPACE=1
    exec unshare --mount --propagation private "$0" "$settings" "$puppet"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -e /usr/bin/defaults ]; then
    mount --bind "$settings" /usr/bin/defaults
else
    mkdir "$work/bin"
    ln -s "$settings" "$work/bin/defaults"
    mount -t overlay overlay -o "lowerdir=$work/bin:/usr/bin" /usr/bin
fi
export XDG_CONFIG_HOME="$work/config" TZ=UTC
mkdir -p "$XDG_CONFIG_HOME"

passed=0 failed=0
check() { # NAME COMMAND...: one counted check
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "ok: $name"; else failed=$((failed + 1)); echo "FAILED: $name"; fi
}
check "/usr/bin/defaults is settings" sh -c '/usr/bin/defaults help 2>&1 | grep -q "Command line interface to a user'"'"'s defaults"'

# What was there before Puppet: a key to delete, and a key of the right text but the wrong type.
/usr/bin/defaults write com.example.puppet obsolete -string "to be removed"
/usr/bin/defaults write com.example.puppet retyped -string 7

apply() { # RUN: puppet apply, its exit status in $work/RUN.status
    local status=0
    "$puppet" apply --detailed-exitcodes --color=false --modulepath "$here/modules" \
        --confdir "$work/puppet" --vardir "$work/puppet/var" --codedir "$work/puppet/code" \
        --logdir "$work/puppet/log" --rundir "$work/puppet/run" \
        "$here/site.pp" >"$work/$1.log" 2>&1 || status=$?
    echo "$status" >"$work/$1.status"
}
apply first
apply second
status_is() { [ "$(cat "$work/$1.status")" = "$2" ] || { cat "$work/$1.log" >&2; return 1; }; }
check "the first run changes the machine (exit 2)" status_is first 2
check "the second run changes nothing (exit 0)" status_is second 0
check "the first run ran every resource" test "$(grep -c "Exec\[.*executed successfully" "$work/first.log")" -eq 10

python3 - "$XDG_CONFIG_HOME" >"$work/checks" <<'PY'
import plistlib, sys
config = sys.argv[1]
def check(name, ok):
    print(("ok: " if ok else "FAILED: ") + name)
d = plistlib.load(open(f"{config}/com.example.puppet.plist", "rb"))
expect = {"name": "Hello World", "count": 42, "negative": -7, "ratio": 1.5,
          "enabled": True, "hidden": False, "retyped": 7}
for key, value in expect.items():
    check(f"{key} is {value!r} of type {type(value).__name__}", type(d.get(key)) is type(value) and d.get(key) == value)
check("nothing else is in the domain (obsolete deleted)", sorted(d) == sorted(expect))
check("the global domain has AppleLocale",
      plistlib.load(open(f"{config}/.GlobalPreferences.plist", "rb")).get("AppleLocale") == "en_GB")
check("-currentHost wrote the ByHost file",
      plistlib.load(open(f"{config}/ByHost/com.example.puppet..plist", "rb")).get("screen") == 2)
PY
while read -r line; do
    echo "$line"
    case $line in ok:*) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac
done <"$work/checks"
echo "puppet: $passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
