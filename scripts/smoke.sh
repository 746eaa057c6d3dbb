#!/usr/bin/env bash
# Runs the release binary as a user would, in a scratch config folder, and checks the
# files it writes with an independent reader (plistlib). Usage: scripts/smoke.sh [BIN]
set -euo pipefail
bin=${1:-.build/release/settings}
XDG_CONFIG_HOME=$(mktemp -d)
export XDG_CONFIG_HOME
trap 'rm -rf "$XDG_CONFIG_HOME"' EXIT

"$bin" write com.example.app music -bool true
"$bin" write com.example.app musicVolume -float 75
test "$("$bin" read-type com.example.app music)" = "Type is boolean"
test "$("$bin" read com.example.app musicVolume)" = "75"
python3 - "$XDG_CONFIG_HOME/com.example.app.plist" <<'PY'
import plistlib, sys
d = plistlib.load(open(sys.argv[1], "rb"))
assert d == {"music": True, "musicVolume": 75.0}, d
PY
"$bin" delete com.example.app musicVolume
test "$("$bin" domains)" = "com.example.app"
if "$bin" write com.example.app n -int abc 2>/dev/null; then echo "bad value accepted" >&2; exit 1; fi
test "$(stat -c %a "$XDG_CONFIG_HOME/com.example.app.plist")" = "600"
echo "smoke: ok"
