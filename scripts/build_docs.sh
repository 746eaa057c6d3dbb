#!/usr/bin/env bash
# Builds SettingsKit's DocC catalog with the toolchain's own docc, no package plugin: the
# compiler emits the module's symbol graph, and `docc convert` joins it to the articles.
# Any warning (a broken link, an unknown symbol) fails.  usage: scripts/build_docs.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/docs/SettingsKit.doccarchive}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/all" "$work/graphs"
# A scratch build of its own, so the symbol graphs are emitted even when .build is current.
swift build --scratch-path "$work/build" --target SettingsKit \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$work/all" >/dev/null
cp "$work"/all/SettingsKit*.symbols.json "$work/graphs/"
rm -rf "$out"
mkdir -p "$(dirname "$out")"
docc convert Sources/SettingsKit/SettingsKit.docc --additional-symbol-graph-dir "$work/graphs" \
    --output-path "$out" --fallback-display-name SettingsKit \
    --fallback-bundle-identifier org.settings.SettingsKit --warnings-as-errors
echo "docs: $out"
