#!/usr/bin/env bash
# Two builds of settings side by side on the goal rows at 100,000 keys: for each row, the
# median time of each and the median of the per-round ratios NEW / OLD (interleaved rounds,
# Benchmarks/pairs.py, so a machine that slows down slows both alike), and the peak memory
# of each against the row's memory goal where it has one.
#   Benchmarks/compare.sh OLD_SETTINGS NEW_SETTINGS [ROUNDS]
# A ratio above 1.10 reads SLOWER (issue 50: every figure within 10% of the build before).
set -euo pipefail
cd "$(dirname "$0")/.." || exit 1
old=$(readlink -f "$1") new=$(readlink -f "$2") rounds=${3:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/make_domains.py "$work/originals" >/dev/null
mkdir -p "$work/store" "$work/home"
export XDG_CONFIG_HOME="$work/store" HOME="$work/home"
cp "$work"/originals/*.plist "$work/store/"
python3 - "$work/originals/com.bench.big.plist" "$work/big.json" <<'PY'
import base64, datetime, json, plistlib, sys
def tagged(v):
    if isinstance(v, bytes): return {"$data": base64.b64encode(v).decode()}
    if isinstance(v, datetime.datetime): return {"$date": v.strftime("%Y-%m-%dT%H:%M:%SZ")}
    if isinstance(v, list): return [tagged(x) for x in v]
    if isinstance(v, dict): return {k: tagged(x) for k, x in v.items()}
    return v
json.dump(tagged(plistlib.load(open(sys.argv[1], "rb"))), open(sys.argv[2], "w"))
PY
xml=$(stat -c %s "$work/originals/com.bench.big.plist") bin=$(stat -c %s "$work/originals/com.bench.bigbin.plist")
restore="cp $work/originals/com.bench.big.plist $work/originals/com.bench.bigbin.plist $work/store/ && rm -f $work/store/com.bench.imported.plist"
# Reads leave the files alone, settled (a one-key read's index is made only of a file
# whose status has not changed for two seconds); writes and imports start from the originals each run.
sleep 2.1
# NAME | ARGS (after the binary) | memory goal in bytes, or 0 | restore before each run
rows=(
    "one-key read, XML|read com.bench.big key050007|0|"
    "one-key read, binary|read com.bench.bigbin key050007|0|"
    "whole-domain read|read com.bench.big|0|"
    "export --json|export com.bench.big - --json|$((3 * xml))|"
    "export to binary|export com.bench.big $work/exported.plist|0|"
    "binary domain to XML|export com.bench.bigbin -|$((2 * bin))|"
    "import --json|import com.bench.imported $work/big.json --json|$((3 * xml))|$restore"
    "one-key write, XML|write com.bench.big key050007 -int 5|$((3 * xml))|$restore"
    "one-key write, binary|write com.bench.bigbin key050007 -int 5|$((3 * bin))|$restore"
)
peak() { # PREPARE BINARY ARGS...: median peak RSS of 3 runs, in bytes
    local i values=() prepare=$1
    shift
    for i in 1 2 3; do
        [ -z "$prepare" ] || sh -c "$prepare"
        /usr/bin/time -o "$work/peak" -f %M "$@" >/dev/null 2>&1 || true
        values+=("$(tail -n 1 "$work/peak")")
    done
    printf '%s\n' "${values[@]}" | sort -n | sed -n 2p | awk '{print $1 * 1024}'
}
printf '%-24s %10s %10s %8s %10s %10s %s\n' row "old ms" "new ms" ratio "old MB" "new MB" verdict
for row in "${rows[@]}"; do
    IFS='|' read -r name args goal prepare <<<"$row"
    # shellcheck disable=SC2086
    python3 Benchmarks/pairs.py "$work/pair.json" "$rounds" "$prepare" "$new $args" "$old $args" >/dev/null
    read -r old_ms new_ms ratio < <(python3 - "$work/pair.json" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))
new, old = (statistics.median(x["times"]) * 1000 for x in r["results"])
print(f"{old:.1f} {new:.1f} {statistics.median(r['ratios'][0]):.3f}")
PY
)
    # shellcheck disable=SC2086
    old_mem=$(peak "$prepare" $old $args) new_mem=$(peak "$prepare" $new $args)
    verdict=$(awk -v r="$ratio" 'BEGIN { print (r > 1.10 ? "SLOWER" : "within 10%") }')
    if [ "$goal" -gt 0 ]; then
        verdict+=$(awk -v m="$new_mem" -v g="$goal" 'BEGIN { printf ", memory %s (goal %.1f MB)", (m < g ? "met" : "MISSED"), g / 1e6 }')
    fi
    printf '%-24s %10s %10s %8s %10.1f %10.1f %s\n' "$name" "$old_ms" "$new_ms" "$ratio" "$(echo "$old_mem / 1000000" | bc -l)" "$(echo "$new_mem / 1000000" | bc -l)" "$verdict"
done
