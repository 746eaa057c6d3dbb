#!/bin/bash
# Writes Sources/settings/HotSymbols.txt: the functions a one-key read, write and delete and
# an export of a 100,000-key domain run (callgrind, mangled), in the order lld lays them out
# (Package.swift). Run it after big changes to those paths; names it no longer finds are
# passed over by the linker, so a stale list only lays out less code together.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/config"
python3 - "$work/config" <<'PY'
import datetime, plistlib, sys
d, base = {}, datetime.datetime(2001, 1, 1)
for i in range(100_000):
    d["key%06d" % i] = [i * 7919, i / 7.0, "value %d" % i, bool(i % 3), base + datetime.timedelta(seconds=i),
        bytes(range(24)), ["item %d" % i, i], {"name": "entry %d" % i, "count": i}][i % 8]
plistlib.dump(d, open(sys.argv[1] + "/com.big.plist", "wb"))
PY
bin=.build/release/settings
export XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
for args in "write com.small k -int 5" "read com.small k" "delete com.small k" "--version" \
    "export com.big $work/out.plist" "export com.big - --json" "read com.big key000007"; do
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/cg.%p" $bin $args >/dev/null 2>&1 || true
done
cat "$work"/cg.* | grep -E "^c?fn=" | sed -E 's/^c?fn=\([0-9]+\) ?//' | grep -v '^$' | sort -u >"$work/hot"
nm --defined-only "$bin" | awk '{print $3}' | sort -u >"$work/all"
comm -12 "$work/hot" "$work/all" >Sources/settings/HotSymbols.txt
wc -l Sources/settings/HotSymbols.txt
