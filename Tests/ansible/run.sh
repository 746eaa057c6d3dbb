#!/usr/bin/env bash
# Ansible's osx_defaults module manages a domain through `settings` linked as
# `defaults`: every task reports a change on the first run and none on the second, and
# plistlib finds the values. Usage: Tests/ansible/run.sh SETTINGS_BINARY [ANSIBLE_PLAYBOOK]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
settings=$(realpath "$1")
playbook=${2:-ansible-playbook}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/config"
ln -s "$settings" "$work/bin/defaults"
export DEFAULTS_BIN_DIR="$work/bin" XDG_CONFIG_HOME="$work/config" TZ=UTC
export ANSIBLE_STDOUT_CALLBACK=json ANSIBLE_LOCALHOST_WARNING=false ANSIBLE_INVENTORY_UNPARSED_WARNING=false
# The modules run under the Python that runs Ansible (interpreter discovery can pick a
# version that is not installed).
ANSIBLE_PYTHON_INTERPRETER="$(dirname "$(command -v "$playbook")")/python3"
export ANSIBLE_PYTHON_INTERPRETER ANSIBLE_HOME="$work/ansible"

"$work/bin/defaults" write com.example.ansible obsolete -string "to be removed"
for run in first second; do
    "$playbook" -i localhost, -c local "$here/osx_defaults.yml" >"$work/$run.json" || {
        cat "$work/$run.json" >&2; exit 1; }
done
python3 - "$work" <<'PY'
import json, plistlib, sys
work = sys.argv[1]
def changes(run):
    plays = json.load(open(f"{work}/{run}.json"))["plays"]
    out = {}
    for task in plays[0]["tasks"]:
        result = task["hosts"]["localhost"]
        assert not result.get("failed"), (task["task"]["name"], result.get("msg"))
        out[task["task"]["name"]] = result["changed"]
    return out
first, second = changes("first"), changes("second")
assert all(first.values()), f"first run, not changed: {[k for k, v in first.items() if not v]}"
assert not any(second.values()), f"second run, changed: {[k for k, v in second.items() if v]}"
d = plistlib.load(open(f"{work}/config/com.example.ansible.plist", "rb"))
assert d["enabled"] is True and d["count"] == 42 and d["ratio"] == 1.5 and d["name"] == "Hello World", d
assert d["langs"] == ["en", "fr CA"] and sorted(d["extra"]) == ["c", "d"] and "obsolete" not in d, d
assert d["when"].isoformat() == "2020-10-10T06:15:40", d["when"]
assert plistlib.load(open(f"{work}/config/.GlobalPreferences.plist", "rb"))["AppleLocale"] == "en_GB"
assert plistlib.load(open(f"{work}/config/ByHost/com.example.ansible..plist", "rb"))["screen"] == 2
print(f"ansible osx_defaults: {len(first)} tasks changed on the first run, none on the second")
PY
