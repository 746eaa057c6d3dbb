#!/usr/bin/env bash
# The scale table (issue 47): every settings-as-code verb on one domain of 4,000, 16,000
# and 64,000 keys, its median time at each size and its growth per 4x keys (linear is
# about 4x, quadratic 16x). Goal: every verb grows under 4.5x per 4x keys, and at 64,000
# keys takes at most 10x `import` of the same keys into a new domain.
#   Benchmarks/run.sh --scale [SETTINGS]          (or Benchmarks/scale.sh [SETTINGS])
# SETTINGS is the binary to measure (default: this tree's release build, built first).
# SCALE_SIZES (default "4000 16000 64000"), SCALE_RUNS (hyperfine runs a row, default 5)
# and SCALE_CAP (seconds, default 120: a command slower than that once is not timed
# again, and its row says "> CAP") change the run; SCALE_ONLY (a regular expression of
# row names) picks rows.
# Each command runs once first with its preparation, untimed beyond the cap; a command
# slower than 5 s is then not run again, that one run its figure.
set -euo pipefail
cd "$(dirname "$0")/.." || exit 1
settings=${1:-}
if [[ -z $settings ]]; then
    swift build -c release --product settings 2>&1 | tail -n 1
    settings="$PWD/.build/release/settings"
fi
sizes=${SCALE_SIZES:-"4000 16000 64000"}
runs=${SCALE_RUNS:-5}
cap=${SCALE_CAP:-120}
only=${SCALE_ONLY:-.}
command -v hyperfine >/dev/null || apt-get install -y -qq hyperfine >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export XDG_CONFIG_HOME="$work/config" HOME="$work/home" XDG_STATE_HOME="$work/state"
export XDG_CACHE_HOME="$work/cache" XDG_DATA_HOME="$work/data"
export GIT_CONFIG_GLOBAL="$work/gitconfig" GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
mkdir -p "$XDG_CONFIG_HOME" "$HOME"
d=com.scale.d
copy="$XDG_CONFIG_HOME/$d.sync-conflict-20241122-101500-ABCDEF7.plist"

# measure NAME N PREPARE COMMAND: the median of COMMAND's runs, in $work/results.txt
# as "NAME N SECONDS [capped]".
measure() {
    local name=$1 n=$2 prepare=$3 command=$4
    [[ $name =~ $only ]] || return 0
    # The preparation as one script, as hyperfine -N runs a command without a shell.
    printf '%s\n' "${prepare:-true}" >"$work/prepare.sh"
    sh "$work/prepare.sh" >/dev/null 2>&1
    local start end took status=0
    start=$(date +%s.%N)
    # Status 1 is an answer (diff and apply --check: they differ), not a failure.
    timeout "$cap" sh -c "$command" >/dev/null 2>&1 || status=$?
    if ((status == 124)); then
        echo "$name $n $cap capped" >>"$work/results.txt"
        echo "  $name: over ${cap} s" >&2
        return 0
    elif ((status > 1)); then
        echo "  $name failed ($status): $command" >&2
        sh -c "$command" >&2 || true
        exit 1
    fi
    end=$(date +%s.%N)
    took=$(awk -v end="$end" -v start="$start" 'BEGIN { print end - start }')
    if awk -v took="$took" 'BEGIN { exit !(took > 5) }'; then
        echo "$name $n $took" >>"$work/results.txt"
    else
        hyperfine -N -i --style none --warmup 1 --runs "$runs" --prepare "sh $work/prepare.sh" \
            --export-json "$work/one.json" "$command" >/dev/null 2>&1 ||
            hyperfine -i --style none --warmup 1 --runs "$runs" --prepare "sh $work/prepare.sh" \
                --export-json "$work/one.json" "$command" >/dev/null
        python3 -c "import json, statistics, sys; print(sys.argv[1], sys.argv[2], statistics.median(json.load(open(sys.argv[3]))['results'][0]['times']))" \
            "$name" "$n" "$work/one.json" >>"$work/results.txt"
    fi
    echo "  $name: $(tail -n 1 "$work/results.txt" | awk '{print $NF}') s" >&2
}

for n in $sizes; do
    echo "$n keys" >&2
    rm -rf "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" "$XDG_CACHE_HOME" "$XDG_DATA_HOME" "$work/n"
    mkdir -p "$XDG_CONFIG_HOME" "$work/n"
    f="$work/n"
    # The domain (every 8th value a small dictionary), the same with every 4th key changed,
    # every 16th gone and n/16 new ones, a desired state of those, and 1,000 keys changed
    # (the journal keeps the values of at most 4,096 changed keys, so undo takes back that).
    python3 - "$n" "$f" "$d" <<'PY'
import json, sys
n, folder, domain = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def value(i, bump=0):
    t = i % 8
    if t in (0, 4): return i * 7919 + bump
    if t in (1, 5): return i / 8.0 + 0.25 + bump
    if t in (2, 6): return "value number %d%s" % (i, " changed" if bump else "")
    if t == 3: return bool((i + bump) % 3)
    return {"count": i + bump, "name": "item %d" % i}
keys = ["key%06d" % i for i in range(n)]
orig = {k: value(i) for i, k in enumerate(keys)}
changed = {k: value(i, 1 if i % 4 == 0 else 0) for i, k in enumerate(keys) if i % 16 != 3}
changed.update({"new%06d" % i: value(i) for i in range(n // 16)})
step = max(1, n // 1000)
merge = {k: value(i, 2) for i, k in enumerate(keys) if i % step == 0}
for name, data in [("orig", orig), ("changed", changed), ("merge", merge), ("desired", {domain: changed})]:
    json.dump(data, open(f"{folder}/{name}.json", "w"), indent=1)
PY
    "$settings" import "$d" "$f/orig.json" --json
    cp "$XDG_CONFIG_HOME/$d.plist" "$f/orig.plist"
    "$settings" import com.scale.changed "$f/changed.json" --json
    mv "$XDG_CONFIG_HOME/com.scale.changed.plist" "$f/changed.plist"
    restore="$settings import $d $f/orig.plist --replace"
    # The journal of one import --merge, for history.
    "$settings" import "$d" "$f/merge.json" --json --merge
    measure "history" "$n" "" "$settings history $d"
    measure "import" "$n" "rm -f $XDG_CONFIG_HOME/com.scale.new.plist" \
        "$settings import com.scale.new $f/orig.json --json"
    measure "import --merge" "$n" "$restore" "$settings import $d $f/merge.json --json --merge"
    measure "undo" "$n" "$restore && $settings import $d $f/merge.json --json --merge" "$settings undo $d"
    "$settings" import "$d" "$f/orig.plist" --replace
    measure "export --json" "$n" "" "$settings export $d $f/out.json --json"
    measure "diff" "$n" "" "$settings diff $d $f/changed.plist"
    measure "diff --commands" "$n" "" "$settings diff --commands $d $f/changed.plist"
    measure "snapshot" "$n" "" "$settings snapshot $d -o $f/snapshot.json"
    measure "apply --dry-run" "$n" "" "$settings apply $f/desired.json --dry-run"
    measure "apply --check" "$n" "" "$settings apply $f/desired.json --check"
    measure "apply" "$n" "$restore && rm -f $XDG_STATE_HOME/settings/apply/desired.json" \
        "$settings apply $f/desired.json"
    measure "capture" "$n" "$restore" "$settings capture $d -- $settings write $d key000001 -int 7"
    printf '#!/bin/sh\ncp %s "$1"\n' "$f/changed.json" >"$f/editor" && chmod +x "$f/editor"
    measure "edit" "$n" "$restore" "env EDITOR=$f/editor $settings edit $d"
    "$settings" import "$d" "$f/orig.plist" --replace
    cp "$f/orig.plist" "$f/base.plist"
    cp "$f/base.plist" "$f/ours.orig" && cp "$f/base.plist" "$f/theirs.plist"
    "$settings" write "$f/ours.orig" key000002 -int 1 && "$settings" write "$f/ours.orig" ours -int 1
    "$settings" write "$f/theirs.plist" key000005 -int 2 && "$settings" write "$f/theirs.plist" theirs -int 2
    measure "merge-file" "$n" "cp $f/ours.orig $f/ours.plist" \
        "$settings merge-file $f/base.plist $f/ours.plist $f/theirs.plist"
    measure "conflicts --resolve" "$n" "$restore && cp $f/changed.plist $copy" "$settings conflicts --resolve $d"
    # A sync round carrying one changed key, against a bare repository on this machine.
    if [[ sync =~ $only ]]; then
        "$settings" import "$d" "$f/orig.plist" --replace
        rm -rf "$f/remote.git" && git init -q --bare -b main "$f/remote.git"
        "$settings" sync init "$f/remote.git" "$d" >/dev/null
        "$settings" sync >/dev/null
        echo 0 >"$f/counter"
        measure "sync, one key changed" "$n" \
            "n=\$((\$(cat $f/counter) + 1)); echo \$n >$f/counter; $settings write $d key000003 -int \$n" \
            "$settings sync"
    fi
done

python3 - "$work/results.txt" "$sizes" <<'PY'
import sys
results, sizes = {}, [int(s) for s in sys.argv[2].split()]
order = []
for line in open(sys.argv[1]):
    parts = line.split()
    capped = parts[-1] == "capped"
    seconds = float(parts[-2] if capped else parts[-1])
    n = int(parts[-3] if capped else parts[-2])
    name = " ".join(parts[:-3] if capped else parts[:-2])
    if name not in results: order.append(name)
    results.setdefault(name, {})[n] = (seconds, capped)
def fmt(cell):
    if cell is None: return "-"
    seconds, capped = cell
    text = f"{seconds * 1000:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"
    return ("> " + text) if capped else text
reference = results.get("import", {}).get(sizes[-1])
head = " | ".join(f"{n:,} keys" for n in sizes)
growth = " | ".join(f"{a // 1000}k→{b // 1000}k" for a, b in zip(sizes, sizes[1:]))
print(f"| verb | {head} | growth {growth} | at {sizes[-1]:,}: × import | goal |")
print("|---" * (len(sizes) * 2 + 2) + "|")
for name in order:
    row = results[name]
    cells = [fmt(row.get(n)) for n in sizes]
    growths, met = [], True
    for a, b in zip(sizes, sizes[1:]):
        if a in row and b in row:
            g = row[b][0] / row[a][0]
            growths.append(("> " if row[b][1] else "") + f"{g:.1f}×")
            met &= not row[b][1] and g < 4.5
        else:
            growths.append("-")
            met = False
    last = row.get(sizes[-1])
    if last and reference:
        times = last[0] / reference[0]
        vs = ("> " if last[1] else "") + f"{times:.1f}"
        met &= not last[1] and (name == "import" or times <= 10)
    else:
        vs, met = "-", False
    print(f"| {name} | {' | '.join(cells)} | {' | '.join(growths)} | {vs} | {'met' if met else 'missed'} |")
PY
