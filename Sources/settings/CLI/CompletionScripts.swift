/// The completion scripts, one per shell. Each only hands the command line to
/// `settings complete line` and shows what comes back (see `Completion`), so none knows a
/// verb or an option: the verb table is the one list. `settings completion SHELL` prints
/// the script to load with one line in a shell's rc file; completions/ holds the same
/// scripts for installing where each shell looks (`make completions` writes them, and a
/// test fails while they differ).
enum CompletionScripts {
    /// The shells `script(for:)` has a script for.
    static let shells = ["bash", "zsh", "fish"]

    /// The script `settings completion SHELL` prints.
    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh": zshFunction + zshRegister
        case "fish": fish
        default: nil
        }
    }

    /// The file installed for each shell, under completions/.
    static let files: [(name: String, text: String)] = [
        ("settings.bash", bash),
        ("_settings", "#compdef settings defaults plutil PlistBuddy\n" + zshFunction + "\n_settings \"$@\"\n"),
        ("settings.fish", fish),
    ]

    static let bash = #"""
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

        """#

    static let zshFunction = #"""
        # zsh completion for settings, and for it installed or linked as `defaults`: the
        # words typed go to `settings complete line`, which answers from its verb table.
        _settings() {
          local -a lines names shown
          local line also message
          lines=("${(@f)$(${(Q)words[1]} complete line "${(@Q)words[2,CURRENT-1]}" "${(Q)PREFIX}" 2>/dev/null)}")
          also=${lines[1]%%$'\t'*}
          [[ $lines[1] == *$'\t'* ]] && message=${lines[1]#*$'\t'}
          for line in "${(@)lines[2,-1]}"; do
            [[ -n $line ]] || continue
            names+=("${line%%$'\t'*}")
            if [[ $line == *$'\t'* ]]; then
              shown+=("${line%%$'\t'*}  -- ${line#*$'\t'}")
            else
              shown+=("${line}")
            fi
          done
          [[ -n $message ]] && _message "$message"
          (( ${#names} )) && compadd -l -d shown -a names
          case $also in
            files) _files ;;
            directories) _files -/ ;;
            commands) _command_names ;;
          esac
        }

        """#

    /// Loaded with eval, the function registers itself; before compinit has run there is
    /// no compdef yet, so it waits for the first prompt (after ~/.zshrc has run compinit),
    /// and says what to add when compinit never ran.
    static let zshRegister = #"""

        if (( $+functions[compdef] )); then
          compdef _settings settings defaults plutil PlistBuddy
        else
          _settings_register() {
            add-zsh-hook -d precmd _settings_register
            if (( $+functions[compdef] )); then
              compdef _settings settings defaults plutil PlistBuddy
            else
              print -u2 "settings: completion needs compinit: add 'autoload -Uz compinit && compinit' to ~/.zshrc"
            fi
            unfunction _settings_register
          }
          autoload -Uz add-zsh-hook
          add-zsh-hook precmd _settings_register
        fi

        """#

    static let fish = #"""
        # fish completion for settings, and for it installed or linked as `defaults`: the
        # words typed go to `settings complete line`, which answers from its verb table.
        function __settings_complete
            set -l tokens (commandline -opc)
            set -l current (commandline -ct)
            set -l lines (command $tokens[1] complete line $tokens[2..-1] $current 2>/dev/null)
            set -q lines[1]; or return
            for line in $lines[2..-1]
                printf '%s\n' $line
            end
            switch (string split -f1 \t -- $lines[1])
                case files
                    __fish_complete_path $current
                case directories
                    __fish_complete_directories $current
                case commands
                    __fish_complete_command $current
            end
        end

        for program in settings defaults plutil PlistBuddy
            complete -c $program -f -a '(__settings_complete)'
        end

        """#
}
