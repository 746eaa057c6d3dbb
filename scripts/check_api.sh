#!/usr/bin/env bash
# The public API of the library products against the last release: the commit that set the
# version CLI.version holds now (see CHANGELOG.md). A break fails the run until the version
# moves on, which makes the commit that says so the new baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
release=$(git log -1 --format=%H -G'static let version = ' -- Sources/settings/CLI/CLI.swift)
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/settings/CLI/CLI.swift)
echo "comparing with $version, released in ${release:0:12}"
swift package diagnose-api-breaking-changes "$release" --products SettingsKit SettingsCore
