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
