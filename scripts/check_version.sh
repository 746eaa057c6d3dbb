#!/usr/bin/env bash
# The version lives in CLI.version; the README's install lines, the man page's title line and
# the first entry of CHANGELOG.md must say the same. Prints "version: N passed, M failed, 0 skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/settings/CLI/CLI.swift)
passed=0 failed=0
check() {
    if [ "$2" = "$version" ]; then echo "ok   $1 says $version"; passed=$((passed + 1))
    else echo "FAIL $1 says '${2}', CLI.version is $version"; failed=$((failed + 1)); fi
}
check "the man page's .TH line" "$(sed -n '1s/.*"settings \([^"]*\)".*/\1/p' man/settings.1)"
check "CHANGELOG.md's first entry" "$(grep -m1 -E '^## [0-9]' CHANGELOG.md | sed -E 's/^## ([^ ]+).*/\1/')"
for found in $(grep -oE 'settings-[0-9]+\.[0-9]+\.[0-9]+-linux' README.md | sed -E 's/settings-(.*)-linux/\1/' | sort -u); do
    check "README.md's release archive" "$found"
done
for found in $(grep -oE 'from: "[0-9]+\.[0-9]+\.[0-9]+"' README.md Sources/SettingsKit/SettingsKit.docc/*.md | sed -E 's/.*"(.*)"/\1/' | sort -u); do
    check "a Package.swift line in the docs" "$found"
done
echo "version: $passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
