#!/usr/bin/env bash
# Shows that the compiler refuses an upward import between the core's targets: in a
# scratch copy of the sources, PlistModel (the bottom layer) imports PlistCodecs and uses
# it, and PlistCodecs imports SettingsStore; each build must fail on that import ("no such
# module" in a fresh build, "circular dependency" once the upper module is built).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r Package.swift Sources Tests Benchmarks "$scratch"/
status=0
attempt() { # TARGET FILE IMPORT USE
    local target=$1 file=$2
    printf 'import %s\nlet upwardUse = %s.self\n' "$3" "$4" >"$scratch/Sources/$target/$file"
    if out=$(cd "$scratch" && swift build --target "$target" 2>&1); then
        echo "FAIL $target imports $3 and still builds"; status=1
    elif grep -qE "circular dependency between modules '$target' and '$3'|no such module '$3'" <<<"$out"; then
        echo "ok   $target cannot import $3: $(grep -oE "circular dependency|no such module" <<<"$out" | head -n 1)"
    else
        echo "FAIL $target importing $3 failed for another reason:"; grep error: <<<"$out" | head -3; status=1
    fi
    rm -f "$scratch/Sources/$target/$file"
}
# The control: the copy builds as it is, and a downward import is fine.
printf 'import PlistModel\nlet downwardUse = PlistValue.self\n' >"$scratch/Sources/PlistCodecs/DownwardImport.swift"
if (cd "$scratch" && swift build --target PlistCodecs >/dev/null 2>&1); then
    echo "ok   PlistCodecs imports PlistModel and builds"
else
    echo "FAIL the scratch copy does not build with a downward import"; status=1
fi
rm -f "$scratch/Sources/PlistCodecs/DownwardImport.swift"
attempt PlistModel UpwardImport.swift PlistCodecs JSONWriter
attempt PlistCodecs UpwardImport.swift SettingsStore DomainStore
exit $status
