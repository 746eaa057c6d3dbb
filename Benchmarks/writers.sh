#!/usr/bin/env bash
# Writers at once (issue 34): N writers each making 200 one-key writes, on their own
# domains or all on one, with settings or with git config; prints how many writes were
# refused (git config refuses a write whose lock another holds; settings waits).
#   writers.sh SETTINGS_BINARY WORK_DIR MODE
# MODE: one (1 writer), domains (4 writers, 4 domains), apart (4 writers, 4 domains, each
# in a config and state folder of its own: nothing shared to wait on, the floor for
# "domains" on any number of cores), shared (4 writers, 1 domain), git (4 writers, 1 git
# config file).
set -u
settings=$1 work=$2 mode=$3
export XDG_CONFIG_HOME="$work/writers" HOME="$work/writers-home"
mkdir -p "$XDG_CONFIG_HOME"
loop() { # WRITER DOMAIN
    local refused=0
    for i in $(seq 200); do
        if [ "$mode" = git ]; then
            git config --file "$work/writers.gitconfig" "w$1.k$((i % 5))" "$i" 2>/dev/null || refused=$((refused + 1))
        else
            "$settings" write "$2" "w$1k$((i % 5))" -int "$i" || refused=$((refused + 1))
        fi
    done
    echo "$refused" >"$work/writers-refused-$1"
}
case $mode in
one) loop 0 com.writers.0 ;;
domains) for w in 0 1 2 3; do loop "$w" "com.writers.$w" & done ;;
apart) for w in 0 1 2 3; do XDG_CONFIG_HOME="$work/writers/apart-$w" XDG_STATE_HOME="$work/writers/state-$w" loop "$w" "com.writers.$w" & done ;;
shared | git) for w in 0 1 2 3; do loop "$w" com.writers.shared & done ;;
esac
wait
cat "$work"/writers-refused-[0-9] 2>/dev/null | awk '{ s += $1 } END { print s + 0 }' >"$work/writers-refused-$mode.total"
