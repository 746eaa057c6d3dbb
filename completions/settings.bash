# bash completion for settings, and for it installed or linked as `defaults`, `plutil` or `PlistBuddy`: the
# words typed go to `settings complete line`, which answers from its verb table.
_settings() {
    local cur=${COMP_WORDS[COMP_CWORD]} line also
    local -a lines
    mapfile -t lines < <("${COMP_WORDS[0]}" complete line "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
    COMPREPLY=()
    also=${lines[0]%%$'\t'*}
    for line in "${lines[@]:1}"; do
        line=${line%%$'\t'*}
        [[ -n $line && $line == "$cur"* ]] || continue
        # Quoted for the shell (printf -v, not a subshell per candidate: a store may
        # hold thousands of domains).
        printf -v line '%q' "$line"
        COMPREPLY+=("$line")
    done
    case $also in
    files | directories)
        compopt -o filenames 2>/dev/null
        local flag=-f
        [[ $also == directories ]] && flag=-d
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen "$flag" -- "$cur")
        ;;
    commands)
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -c -- "$cur")
        ;;
    esac
}

complete -F _settings settings defaults plutil PlistBuddy
