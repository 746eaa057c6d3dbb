#compdef settings defaults
# zsh completion for settings, and for it installed or linked as `defaults`.
# Domains, keys and pointers come from the binary itself (`settings complete domains|keys D|paths D`),
# and so do the verbs and each verb's options and type flags (`settings complete verbs`,
# `complete options VERB PLACE`, read off its verb table).

_settings_domains() {
  if [[ $PREFIX == (/|\~)* ]]; then
    _files
    return
  fi
  local -a domains
  domains=(${(f)"$(_call_program domains $cmd $host complete domains 2>/dev/null)"})
  _describe -t domains 'domain' domains
  compadd -- -g
}

_settings_keys() {
  local -a keys
  keys=(${(f)"$(_call_program keys $cmd $host complete keys ${(Q)words[verb_at+1]} 2>/dev/null)"})
  _describe -t keys 'key' keys
}

# The options of verb $1 at place $2 (key, value, pointer-value, element, after), described.
_settings_options() {
  local -a opts
  opts=(${(f)"$(_call_program options $cmd complete options $1 $2 2>/dev/null)"})
  opts=(${opts//$'\t'/:})
  _describe -t options "${3:-option}" opts
}

# Pointers into the domain for -p; compadd, not _describe, since a key may hold ':'.
_settings_paths() {
  local -a paths
  paths=(${(f)"$(_call_program paths $cmd $host complete paths ${(Q)words[verb_at+1]} 2>/dev/null)"})
  compadd -a paths
}

_settings() {
  local cmd=$words[1]
  local -a host verbs options
  verbs=(${(f)"$(_call_program verbs $cmd complete verbs 2>/dev/null)"})
  verbs=(${verbs//$'\t'/:})
  options=(
    '-currentHost:use the settings of this host'
    '-host:use the settings of the named host'
  )
  local verb_at=2
  while (( verb_at < CURRENT )); do
    case $words[verb_at] in
      -currentHost) host+=(-currentHost); (( verb_at++ )) ;;
      -host) host+=(-host $words[verb_at+1]); (( verb_at += 2 )) ;;
      *) break ;;
    esac
  done
  if (( verb_at > CURRENT )); then
    _message 'host name'
    return
  fi
  if (( verb_at == CURRENT )); then
    _describe -t verbs 'verb' verbs
    _describe -t options 'option' options
    return
  fi
  local verb=${(L)words[verb_at]} arg=$(( CURRENT - verb_at ))
  # get and set are read and write.
  [[ $verb == get ]] && verb=read
  [[ $verb == set ]] && verb=write
  case $verb in
    read|read-type|write|rename|delete|remove|import|export|watch|paths|keys|list-keys|describe|range|reset|validate)
      if (( arg == 1 )); then _settings_domains; return; fi ;;
    schema)
      (( arg == 1 )) && compadd path
      (( arg == 2 )) && _settings_domains
      return ;;
    complete)
      (( arg == 1 )) && compadd domains keys paths values verbs options
      return ;;
    completion)
      (( arg == 1 )) && compadd bash zsh fish
      return ;;
    *) return ;;
  esac
  # A pointer into the domain follows -p, for every verb that takes one.
  if [[ $words[CURRENT-1] == -p ]]; then
    _settings_paths
    return
  fi
  # `write D -p POINTER ...`: what follows the pointer is what follows a key.
  if [[ $verb == write && $words[verb_at+2] == -p ]] && (( arg >= 4 )); then
    (( arg-- ))
    if (( arg == 3 )); then
      _settings_options write pointer-value 'type flag or option'
      return
    fi
  fi
  case $verb in
    describe|range)
      (( arg == 2 )) && _settings_keys ;;
    reset)
      _settings_keys
      _settings_options reset key ;;
    read|read-type|rename|delete|remove)
      if (( arg == 2 )) && [[ $PREFIX == -* ]]; then
        _settings_options $verb key
      elif (( arg == 2 )); then
        _settings_keys
      elif [[ $PREFIX == -* ]]; then
        _settings_options $verb after
      fi ;;
    write)
      if (( arg == 2 )) && [[ $PREFIX == -* ]]; then
        _settings_options write key
      elif (( arg == 2 )); then
        _settings_keys
      elif (( arg == 3 )); then
        # The schema's choices for the key (or true and false), and the type flags.
        local -a values
        values=(${(f)"$(_call_program values $cmd $host complete values ${(Q)words[verb_at+1]} ${(Q)words[verb_at+2]} 2>/dev/null)"})
        local allowed=""
        if (( ${#values} )); then
          compadd -a values
        elif [[ $PREFIX != -* ]]; then
          # A number: show what the schema allows, as gsettings' completion does.
          allowed=$(_call_program range $cmd $host range ${(Q)words[verb_at+1]} ${(Q)words[verb_at+2]} 2>/dev/null)
          [[ $allowed == range* ]] && _message "value (${allowed#range })" || allowed=""
        fi
        if [[ -z $allowed ]]; then
          _settings_options write value 'type flag or option'
        fi
      elif [[ $words[CURRENT-1] == -bool || $words[CURRENT-1] == -boolean ]]; then
        compadd true false yes no
      elif [[ $PREFIX == -* ]]; then
        _settings_options write element 'type flag'
      fi ;;
    watch)
      case $words[CURRENT-1] in
        --count|--timeout|--debounce) _message 'number'; return ;;
      esac
      if [[ $PREFIX == -* ]]; then
        _settings_options watch after
      else
        _settings_keys
      fi ;;
    import|export)
      if (( arg == 2 )) && [[ $PREFIX == --* ]]; then
        _settings_options $verb key
      elif (( arg == 2 )); then
        _files
        compadd -- -
      else
        _settings_options $verb after
      fi ;;
  esac
}

# Loaded with eval: register instead of running.
compdef _settings settings defaults
