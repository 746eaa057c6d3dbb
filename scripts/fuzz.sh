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
    # shellcheck disable=SC2046
    # The same settings as the SettingsCore target in Package.swift (Extern: the xattr calls).
    rm -f "$binary"
    swiftc -sanitize=fuzzer,address -parse-as-library -O -D "$flag" -module-name SettingsCore \
        -enable-experimental-feature Extern \
        $(find Sources/SettingsCore -name '*.swift') Fuzz/FuzzTarget.swift -o "$binary" 2>&1 | grep -v warning
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
