#!/usr/bin/env bash
# The public API of the library products against the last release: the commit that set the
# version CLI.version holds now (see CHANGELOG.md). A break fails the run until the version
# moves on, which makes the commit that says so the new baseline.
#
# The digester also sees `package` declarations (the targets share a package name), which
# no other package can use: a change to one of them is not a break, and is listed, not failed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
release=$(git log -1 --format=%H -G'static let version = ' -- Sources/settings/CLI/CLI.swift)
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/settings/CLI/CLI.swift)
echo "comparing with $version, released in ${release:0:12}"
out=$(swift package diagnose-api-breaking-changes "$release" --products SettingsKit SettingsCore 2>&1)
status=$?
echo "$out" | grep -v "API breakage"
# The types declared `package` in the libraries (a nested one by its own name too).
package_types=$(grep -rhoE '^\s*package (final )?(enum|struct|class|protocol|actor) [A-Za-z_][A-Za-z0-9_]*' \
    Sources/PlistModel Sources/PlistCodecs Sources/SettingsStore Sources/SettingsKit | awk '{print $NF}' | sort -u)
breaks=0
while IFS= read -r line; do
    [ -n "$line" ] || continue
    # "💔 API breakage: func Subprocess.run(…) has been renamed …": the declaration's type.
    subject=$(sed -E 's/.*API breakage: [a-z]+ ([A-Za-z_][A-Za-z0-9_]*).*/\1/' <<<"$line")
    if grep -qx -- "$subject" <<<"$package_types"; then
        echo "  (package, not API) ${line#*API breakage: }"
    else
        echo "$line"
        breaks=$((breaks + 1))
    fi
done < <(grep "API breakage" <<<"$out")
if [ "$breaks" -gt 0 ]; then echo "api: $breaks breaking changes to the public API since $version" >&2; exit 1; fi
# No break, but the tool failed for another reason (a build that failed).
if [ "$status" -ne 0 ] && ! grep -q "API breakage" <<<"$out"; then exit "$status"; fi
echo "api: no breaking change to the public API since $version"
