#!/usr/bin/env bash
# Builds a libFuzzer binary for each reader (XML, binary, OpenStep, JSON) with AddressSanitizer
# and runs each for SECONDS (default 60), starting from the seeds in Fuzz/seeds.
# Findings (crash-*, timeout-*, oom-*) land in fuzz-out/TARGET/; exit status 1 if any.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     TARGET: xml binary openstep json
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
seconds=${1:-60}
shift || true
targets=("${@:-xml binary openstep json}")
# shellcheck disable=SC2206
targets=(${targets[*]})
mkdir -p fuzz-out
found=0
for target in "${targets[@]}"; do
    flag=$(tr '[:lower:]' '[:upper:]' <<<"FUZZ_$target")
    binary=fuzz-out/fuzz-$target
    # The core's three targets built as one module, as the fuzzer calls their internals:
    # their imports of each other dropped, Extern as for SettingsStore (the xattr calls).
    rm -f "$binary"
    sources=$(mktemp -d)
    for file in $(find Sources/PlistModel Sources/PlistCodecs Sources/SettingsStore -name '*.swift'); do
        sed -E '/^import (PlistModel|PlistCodecs|SettingsStore)$/d' "$file" >"$sources/$(basename "$file")"
    done
    swiftc -sanitize=fuzzer,address -parse-as-library -O -D "$flag" -module-name SettingsCore \
        -package-name settings -enable-experimental-feature Extern \
        "$sources"/*.swift Fuzz/FuzzTarget.swift -o "$binary" 2>&1 | grep -v warning
    rm -rf "$sources"
    if [ ! -x "$binary" ]; then
        echo "fuzz $target: the fuzzer did not build" >&2
        found=1
        continue
    fi
    mkdir -p "fuzz-out/$target/corpus" "fuzz-out/$target/findings"
    echo "== fuzz $target for ${seconds}s"
    "$binary" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="fuzz-out/$target/findings/" "fuzz-out/$target/corpus" "Fuzz/seeds/$target" \
        >"fuzz-out/$target/log.txt" 2>&1
    grep -E "^Done|^#[0-9]+ *DONE" "fuzz-out/$target/log.txt" | tail -n 1
    if compgen -G "fuzz-out/$target/findings/*" >/dev/null; then
        echo "fuzz $target: findings in fuzz-out/$target/findings" >&2
        tail -n 30 "fuzz-out/$target/log.txt" >&2
        found=1
    fi
done
exit $found
