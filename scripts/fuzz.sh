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
mkdir -p fuzz-out/modules
found=0
# The core's three modules, each built as SwiftPM would (one module per target, importing the
# ones below) but with the fuzzer's coverage, AddressSanitizer and testing enabled, so the
# fuzz target can call their internals with @testable import.
for module in PlistModel PlistCodecs SettingsStore; do
    extern=()
    [ "$module" = SettingsStore ] && extern=(-enable-experimental-feature Extern)
    # shellcheck disable=SC2046 # the file names have no spaces
    swiftc -parse-as-library -O -wmo -enable-testing -sanitize=fuzzer,address -module-name "$module" \
        -package-name settings "${extern[@]}" -I fuzz-out/modules -emit-module \
        -emit-module-path "fuzz-out/modules/$module.swiftmodule" -c $(find "Sources/$module" -name '*.swift') \
        -o "fuzz-out/modules/$module.o" 2>&1 | grep -v warning
done
for target in "${targets[@]}"; do
    flag=$(tr '[:lower:]' '[:upper:]' <<<"FUZZ_$target")
    binary=fuzz-out/fuzz-$target
    rm -f "$binary"
    swiftc -parse-as-library -O -sanitize=fuzzer,address -D "$flag" -module-name "Fuzz$target" \
        -package-name settings -I fuzz-out/modules Fuzz/FuzzTarget.swift fuzz-out/modules/*.o -o "$binary" 2>&1 \
        | grep -v warning
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
