# bash completion for settings, and for it installed or linked as `defaults`.
# Verbs, options before the verb, domains and keys (asked of the binary itself with
# `settings complete domains|keys D|paths D`, so they follow the store), each verb's options and
# the type flags where they may stand (`settings complete verbs` and `complete options VERB
# PLACE`, read off the binary's verb table), boolean words after -bool, and file paths for
# import, export and path domains.

# Sets COMPREPLY to the names of `settings complete verbs|options` lines (NAME<TAB>SUMMARY)
# that start with $cur.
_settings_reply_names() {
    local line
    local -a lines
    COMPREPLY=()
    mapfile -t lines <<<"$1"
    for line in "${lines[@]}"; do
        line=${line%%$'\t'*}
        [[ -n $line && $line == "$cur"* ]] && COMPREPLY+=("$line")
    done
}

# The options of verb $1 at place $2 (key, value, pointer-value, element, after).
_settings_options() {
    _settings_reply_names "$("$cmd" complete options "$1" "$2" 2>/dev/null)"
}

# Sets COMPREPLY to the lines of $1 that start with $cur, quoted for the shell
# (`printf -v`, not a subshell per candidate: a store may hold thousands of domains).
_settings_reply_lines() {
    local line quoted
    local -a lines
    COMPREPLY=()
    mapfile -t lines <<<"$1"
    for line in "${lines[@]}"; do
        [[ -n $line && $line == "$cur"* ]] || continue
        printf -v quoted '%q' "$line"
        COMPREPLY+=("$quoted")
    done
}

_settings() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local cmd=${COMP_WORDS[0]} i=1
    local -a host=()
    while ((i < COMP_CWORD)); do
        case ${COMP_WORDS[i]} in
        -currentHost) host+=(-currentHost); ((i++)) ;;
        -host) host+=(-host "${COMP_WORDS[i+1]}"); ((i += 2)) ;;
        *) break ;;
        esac
    done
    if ((i > COMP_CWORD)); then
        COMPREPLY=() # the word after -host is a host name: nothing to offer
        return
    fi
    if ((i == COMP_CWORD)); then
        _settings_reply_names "$("$cmd" complete verbs 2>/dev/null; printf -- '-currentHost\n-host\n')"
        return
    fi
    local verb=${COMP_WORDS[i],,} arg=$((COMP_CWORD - i)) domain=${COMP_WORDS[i+1]}
    # get and set are read and write.
    case $verb in get) verb=read ;; set) verb=write ;; esac
    case $verb in
    schema)
        ((arg == 1)) && mapfile -t COMPREPLY < <(compgen -W "path" -- "$cur")
        ((arg == 2)) && _settings_reply_lines "$("$cmd" "${host[@]}" complete domains 2>/dev/null)"
        return
        ;;
    read | read-type | check | write | rename | delete | remove | import | export | watch | paths | keys | list-keys | describe | range | reset | validate)
        if ((arg == 1)); then
            if [[ $cur == /* || $cur == "~"* ]]; then
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            else
                _settings_reply_lines "$(printf -- '-g\n'; "$cmd" "${host[@]}" complete domains 2>/dev/null)"
            fi
            return
        fi
        ;;
    complete)
        ((arg == 1)) && mapfile -t COMPREPLY < <(compgen -W "domains keys paths values verbs options" -- "$cur")
        return
        ;;
    completion)
        ((arg == 1)) && mapfile -t COMPREPLY < <(compgen -W "bash zsh fish" -- "$cur")
        return
        ;;
    *) return ;;
    esac
    # A pointer into the domain follows -p, for every verb that takes one.
    if [[ $prev == -p ]]; then
        _settings_reply_lines "$("$cmd" "${host[@]}" complete paths "$domain" 2>/dev/null)"
        return
    fi
    # `write D -p POINTER …`: what follows the pointer is what follows a key.
    if [[ $verb == write && ${COMP_WORDS[i+2]} == -p ]] && ((arg >= 4)); then
        ((arg--))
        if ((arg == 3)); then
            _settings_options write pointer-value
            return
        fi
    fi
    case $verb in
    describe | range)
        ((arg == 2)) && _settings_reply_lines "$("$cmd" "${host[@]}" complete keys "$domain" 2>/dev/null)"
        ;;
    reset)
        if [[ $cur == -* ]]; then
            _settings_options reset key
        else
            _settings_reply_lines "$("$cmd" "${host[@]}" complete keys "$domain" 2>/dev/null)"
        fi
        ;;
    read | read-type | check | rename | delete | remove)
        if ((arg == 2)) && [[ $cur == -* ]]; then
            _settings_options "$verb" key
        elif ((arg == 2)); then
            _settings_reply_lines "$("$cmd" "${host[@]}" complete keys "$domain" 2>/dev/null)"
        elif [[ $cur == -* ]]; then
            _settings_options "$verb" after
        fi
        ;;
    write)
        if ((arg == 2)) && [[ $cur == -* ]]; then
            _settings_options write key
        elif ((arg == 2)); then
            _settings_reply_lines "$("$cmd" "${host[@]}" complete keys "$domain" 2>/dev/null)"
        elif ((arg == 3)) && [[ $cur == -* ]]; then
            _settings_options write value
        elif ((arg == 3)); then
            # The schema's choices for the key (or true and false), else the type flags.
            _settings_reply_lines "$("$cmd" "${host[@]}" complete values "$domain" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null)"
            ((${#COMPREPLY[@]})) || _settings_options write value
        elif [[ $prev == -bool || $prev == -boolean ]]; then
            mapfile -t COMPREPLY < <(compgen -W "true false yes no" -- "$cur")
        elif [[ $cur == -* ]]; then
            _settings_options write element
        fi
        ;;
    watch)
        # Keys to watch, and its options; a number follows --count, --timeout, --debounce,
        # and a pointer into the domain follows -p.
        case $prev in
        --count | --timeout | --debounce) return ;;
        -p)
            _settings_reply_lines "$("$cmd" "${host[@]}" complete paths "$domain" 2>/dev/null)"
            return
            ;;
        esac
        if [[ $cur == -* ]]; then
            _settings_options watch after
        else
            _settings_reply_lines "$("$cmd" "${host[@]}" complete keys "$domain" 2>/dev/null)"
        fi
        ;;
    import | export)
        if ((arg == 2)) && [[ $cur == --* ]]; then
            _settings_options "$verb" key
        elif ((arg == 2)); then
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            [[ -z $cur ]] && COMPREPLY+=(-)
        else
            _settings_options "$verb" after
        fi
        ;;
    textconv | merge-file)
        # Files, taken literally (git hands the driver temporary files).
        if [[ $cur == --* ]]; then
            _settings_options "$verb" after
        else
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        fi
        ;;
    sync)
        ((arg == 1)) && mapfile -t COMPREPLY < <(compgen -W "init status log carry remote leave --watch" -- "$cur")
        ((arg == 2)) && [[ ${COMP_WORDS[COMP_CWORD-1]} == --watch ]] && COMPREPLY=(--interval)
        ;;
    conflicts)
        if [[ $cur == --* ]]; then
            _settings_options "$verb" key
        else
            _settings_reply_lines "$("$cmd" "${host[@]}" complete domains 2>/dev/null)"
        fi
        ;;
    git-setup)
        if [[ ${COMP_WORDS[COMP_CWORD-1]} == --repo ]]; then
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        elif ((arg == 1)); then
            _settings_options "$verb" key
        fi
        ;;
    esac
}

complete -F _settings settings defaults
