#!/usr/bin/env bash
# Salt's own macdefaults execution and state modules manage domains through `settings`
# linked as `defaults`, under `salt-call --local`. The modules are Salt's, copied from the
# installed package with only their macOS platform gate changed. Every state reports a
# change on the first run and none on the second, and plistlib finds every value and type.
# Usage: Tests/salt/run.sh SETTINGS_BINARY SALT_CALL
#
# Salt deletes a top-level key by exporting the domain, dropping the key and importing the
# rest. `defaults import` merges at the top level on macOS, and so does ours, so that
# deletion cannot take effect there either; this test deletes nested keys only, which
# the same export-edit-import does replace. `import` is not bent to fit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
settings=$(realpath "$1")
salt_call=$(realpath -s "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/config" "$work/srv/_modules" "$work/srv/_states" "$work/etc"
ln -s "$settings" "$work/bin/defaults"
export PATH="$work/bin:$PATH" XDG_CONFIG_HOME="$work/config" TZ=UTC

passed=0 failed=0
check() { # NAME COMMAND...: one counted check
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "ok: $name"; else failed=$((failed + 1)); echo "FAILED: $name"; fi
}

# Salt's modules, from the installed package, with only `is_darwin()` made true.
site=$("$(dirname "$salt_call")/python3" -c 'import os, salt; print(os.path.dirname(salt.__file__))')
for kind in modules states; do
    sed 's/salt\.utils\.platform\.is_darwin()/True/' "$site/$kind/macdefaults.py" >"$work/srv/_$kind/macdefaults.py"
done
gate_only() { # the copies differ from Salt's in the gate's line and nothing else
    local kind changed
    for kind in modules states; do
        changed=$(diff "$site/$kind/macdefaults.py" "$work/srv/_$kind/macdefaults.py" | grep -c '^[<>]') || true
        [ "$changed" -eq 2 ] || return 1
    done
}
check "the copied modules differ from Salt's only in the platform gate" gate_only
cp "$here/defaults.sls" "$work/srv/defaults.sls"
cat >"$work/etc/minion" <<CONF
file_client: local
file_roots:
  base: [$work/srv]
root_dir: $work/root
cachedir: $work/cache
pki_dir: $work/pki
log_file: $work/minion.log
CONF
salt() { "$salt_call" --local --config-dir "$work/etc" --out json --log-level quiet "$@"; }
salt saltutil.sync_all >/dev/null

# The application's domain, as it would write it; the states change it in place.
defaults write com.example.app Recent -array a b
defaults write com.example.app View '{ Style = list; Size = 32; Nested = { Leaf = old; List = (a, b); }; }'
defaults write com.example.app Other -string kept

# The states, twice: a new domain, every type, nested keys (name_separator).
salt state.apply defaults >"$work/first.json" || { cat "$work/first.json" >&2; exit 1; }
salt state.apply defaults >"$work/second.json" || { cat "$work/second.json" >&2; exit 1; }

# The execution module: a nested write and read (key_separator), a nested delete.
salt macdefaults.write com.example.app View.Nested.Count 2 vtype=int key_separator=. >/dev/null
salt macdefaults.read com.example.app View.Nested.Count key_separator=. >"$work/read.json"
salt macdefaults.delete com.example.app View.Nested.List.0 key_separator=. >/dev/null
salt macdefaults.read com.example.app missing-key >"$work/missing.json"
# The note above, held: Salt's top-level delete re-imports the rest, and import merges.
salt macdefaults.delete com.example.app Other >/dev/null

python3 - "$work" >"$work/checks" <<'PY'
import datetime, json, plistlib, sys
work = sys.argv[1]
def states(run):
    return json.load(open(f"{work}/{run}.json"))["local"].values()
def changed(run):
    return sorted(s["__id__"] for s in states(run) if s["changes"])
def check(name, ok):
    print(("ok: " if ok else "FAILED: ") + name)
first, second = list(states("first")), list(states("second"))
check("first run: every state succeeded", all(s["result"] for s in first))
check("first run: every state changed something", all(s["changes"] for s in first))
check("second run: every state succeeded", all(s["result"] for s in second))
check("second run: no state changed anything" + (f" (changed: {changed('second')})" if changed("second") else ""),
      not changed("second"))
d = plistlib.load(open(f"{work}/config/com.example.salt.plist", "rb"))
expect = {
    "string": "Hello World", "number-as-string": "42", "integer": 42, "negative": -7,
    "float": 1.5, "boolean": True, "inferred-false": False,
    "date": datetime.datetime(2024, 6, 23, 9, 33, 44), "data": "bytes é".encode(),
    "array": ["en", "fr CA", 3],
    "dict": {"Style": "icnv", "Size": 64, "Nested": {"Leaf": "leaf", "List": ["a", "b"]}},
}
app = plistlib.load(open(f"{work}/config/com.example.app.plist", "rb"))
app_expect = {
    "Recent": ["a", "b", "c"], "Other": "kept",
    "View": {"Style": "list", "Added": True, "Nested": {"Leaf": "new", "List": ["B"], "Count": 2}},
}
def same(a, b): # equal, and of the same types all the way down (True is not 1)
    if type(a) is not type(b): return False
    if isinstance(a, dict): return sorted(a) == sorted(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list): return len(a) == len(b) and all(map(same, a, b))
    return a == b
for domain, got, want in (("salt", d, expect), ("app", app, app_expect)):
    for key, value in want.items():
        check(f"{domain}: {key} is {value!r} of type {type(value).__name__}", same(got.get(key), value))
    check(f"{domain}: nothing else is in the domain", sorted(got) == sorted(want))
check("the global domain has AppleLocale",
      plistlib.load(open(f"{work}/config/.GlobalPreferences.plist", "rb")).get("AppleLocale") == "en_GB")
check("macdefaults.read follows key_separator", json.load(open(f"{work}/read.json"))["local"] == 2)
check("a top-level delete by re-import leaves the key, as import merges on macOS", app.get("Other") == "kept")
check("macdefaults.read of a missing key is None", json.load(open(f"{work}/missing.json"))["local"] is None)
PY
while read -r line; do
    echo "$line"
    case $line in ok:*) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac
done <"$work/checks"
echo "salt: $passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
