#!/usr/bin/env bash
# A fleet syncing at once: N machines (their own config, data and home folders) each write
# a key of their own and one shared key, then all sync at the same moment; then quiet
# rounds, one machine after another, until every machine holds the same domain. Prints the
# time from the first write to that, and whether it came.
#   Benchmarks/sync_fleet.sh SETTINGS N
set -euo pipefail
settings=$1 count=$2
work=$(mktemp -d)
trap 'cat "$work"/m*.err | sort | uniq -c | head -5 >&2; rm -rf "$work"' EXIT
git init -q --bare -b main "$work/remote.git"
on() { # MACHINE ARGS...
    local m=$1
    shift
    XDG_CONFIG_HOME="$work/$m/config" XDG_DATA_HOME="$work/$m/data" HOME="$work/$m/home" \
        GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 "$settings" "$@"
}
for ((i = 0; i < count; i++)); do on "m$i" sync init "$work/remote.git" >/dev/null; done
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
start=$(now)
for ((i = 0; i < count; i++)); do
    (on "m$i" write com.fleet "m$i" -int 1 && on "m$i" write com.fleet shared "m$i" && on "m$i" sync) \
        >/dev/null 2>"$work/m$i.err" &
done
wait
failed=$(cat "$work"/m*.err | grep -c . || true)
concurrent=$(now)
converged=no passes=0
while ((passes < 5)); do
    passes=$((passes + 1))
    for ((i = 0; i < count; i++)); do on "m$i" sync >/dev/null 2>&1 || true; done
    if [ "$(for ((i = 0; i < count; i++)); do cksum <"$work/m$i/config/com.fleet.plist"; done | sort -u | wc -l)" -eq 1 ]; then
        converged=yes
        break
    fi
done
end=$(now)
echo "fleet of $count machines writing and syncing at once: $(seconds "$start" "$concurrent") s for all the rounds" \
    "($failed line(s) on stderr), identical after $passes quiet pass(es), $(seconds "$start" "$end") s in all;" \
    "converged: $converged"
