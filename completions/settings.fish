# fish completion for settings, and for it installed or linked as `defaults`.
# Domains and keys come from the binary itself (`settings complete domains|keys D`), and so
# do the verbs and each verb's options and type flags, with their summaries (`settings
# complete verbs`, `complete options VERB PLACE`, read off its verb table).

# The words after the program and its -currentHost/-host options: the verb and its arguments.
function __settings_args
    set -l tokens (commandline -opc)
    set -e tokens[1]
    while set -q tokens[1]
        switch $tokens[1]
            case -currentHost
                set -e tokens[1]
            case -host
                set -e tokens[1]
                set -q tokens[1]; and set -e tokens[1]
            case '*'
                break
        end
    end
    # printf with no arguments would still print an empty line.
    set -q tokens[1]; and printf '%s\n' $tokens
end

# The -currentHost/-host options typed, to pass on to `complete`: the words between the
# program and the verb.
function __settings_host
    set -l tokens (commandline -opc)
    set -l last (math (count $tokens) - (count (__settings_args)))
    test $last -ge 2; and printf '%s\n' $tokens[2..$last]
end

# What the word being completed is: verb, host, domain, key (pathkey where -p may stand
# instead), value (a schema's choices or a type flag), bool, file, pointer, an option of
# one verb, or nothing.
function __settings_state
    set -l previous (commandline -opc)[-1]
    if test "$previous" = -host
        echo host
        return
    end
    set -l args (__settings_args)
    set -l n (count $args)
    if test $n -eq 0
        echo verb
        return
    end
    set -l verb (string lower -- $args[1])
    # get and set are read and write.
    test "$verb" = get; and set verb read
    test "$verb" = set; and set verb write
    # A pointer into the domain follows -p, for every verb that takes one.
    if test $n -ge 2; and test "$previous" = -p; and contains -- $verb read read-type check write delete remove watch
        echo pointer
        return
    end
    # `write D -p POINTER …`: what follows the pointer is what follows a key.
    if test $verb = write; and test $n -ge 4; and test "$args[3]" = -p
        set n (math $n - 1)
        if test $n -eq 3
            echo pathflag
            return
        end
    end
    switch $verb
        case read read-type check delete remove
            if test $n -eq 1
                echo domain
            else if test $n -eq 2; and contains -- $verb delete remove
                echo forcepathkey
            else if test $n -eq 2
                echo pathkey
            else if test $verb = read
                echo readoption
            end
        case rename
            if test $n -eq 1
                echo domain
            else if test $n -eq 2
                echo forcekey
            end
        case completion
            if test $n -eq 1
                echo shellname
            end
        case paths keys list-keys validate
            if test $n -eq 1
                echo domain
            end
        case describe range
            if test $n -eq 1
                echo domain
            else if test $n -eq 2
                echo key
            end
        case reset
            if test $n -eq 1
                echo domain
            else
                echo resetkey
            end
        case schema
            if test $n -eq 1
                echo schema
            else if test $n -eq 2
                echo domain
            end
        case write
            if test $n -eq 1
                echo domain
            else if test $n -eq 2
                echo forcepathkey
            else if test $n -eq 3
                echo value
            else if contains -- $previous -bool -boolean
                echo bool
            else
                echo scalar
            end
        case watch
            if test $n -eq 1
                echo domain
            else if not contains -- $previous --count --timeout --debounce
                echo watch
            end
        case import export
            if test $n -eq 1
                echo domain
            else if test $n -eq 2
                echo file
            else
                echo $verb"option"
            end
        case complete
            if test $n -eq 1
                echo complete
            end
        case sync
            if test $n -eq 1
                echo sync
            end
        case conflicts
            echo conflicts
        case textconv merge-file
            echo gitfile
        case git-setup
            if test "$previous" = --repo
                echo folder
            else if test $n -eq 1
                echo gitsetup
            end
    end
end

# Whether the word being completed is of kind $argv[1].
function __settings_is
    set -l state (__settings_state)
    test "$state" = $argv[1]
end

function __settings_domains
    set -l cmd (commandline -opc)[1]
    echo -- -g
    command $cmd (__settings_host) complete domains 2>/dev/null
end

function __settings_keys
    set -l cmd (commandline -opc)[1]
    set -l args (__settings_args)
    command $cmd (__settings_host) complete keys $args[2] 2>/dev/null
end

function __settings_values
    set -l cmd (commandline -opc)[1]
    set -l args (__settings_args)
    command $cmd (__settings_host) complete values $args[2] $args[3] 2>/dev/null
end

function __settings_verbs
    set -l cmd (commandline -opc)[1]
    command $cmd complete verbs 2>/dev/null
end

# The options of the verb being completed at place $argv[1] (key, value, pointer-value,
# element, after), as NAME<TAB>SUMMARY.
function __settings_options
    set -l cmd (commandline -opc)[1]
    set -l args (__settings_args)
    command $cmd complete options (string lower -- $args[1]) $argv[1] 2>/dev/null
end

function __settings_paths
    set -l cmd (commandline -opc)[1]
    set -l args (__settings_args)
    command $cmd (__settings_host) complete paths $args[2] 2>/dev/null
end

for program in settings defaults
    complete -c $program -f
    complete -c $program -n '__settings_is verb' -a '(__settings_verbs)'
    complete -c $program -n '__settings_is schema' -a path -d 'the schema file'
    complete -c $program -n '__settings_is resetkey' -a '(__settings_keys)' -d key
    complete -c $program -n '__settings_is resetkey' -a '(__settings_options key)'
    complete -c $program -n '__settings_is value' -a '(__settings_values)' -d value
    complete -c $program -n '__settings_is value' -a '(__settings_options value)'
    complete -c $program -n '__settings_is shellname' -a 'bash zsh fish' -d shell
    complete -c $program -n '__settings_is verb' -a -currentHost -d 'use the settings of this host'
    complete -c $program -n '__settings_is verb' -a -host -d 'use the settings of the named host'
    complete -c $program -n '__settings_is domain; and not string match -qr "^[/~]" -- (commandline -ct)' -a '(__settings_domains)' -d domain
    complete -c $program -n '__settings_is domain; and string match -qr "^[/~]" -- (commandline -ct)' -F
    complete -c $program -n '__settings_is key; or __settings_is forcekey' -a '(__settings_keys)' -d key
    complete -c $program -n '__settings_is pathkey; or __settings_is forcepathkey' -a '(__settings_keys)' -d key
    complete -c $program -n '__settings_is pathkey; or __settings_is forcepathkey; or __settings_is forcekey' -a '(__settings_options key)'
    complete -c $program -n '__settings_is readoption; or __settings_is importoption; or __settings_is exportoption' -a '(__settings_options after)'
    complete -c $program -n '__settings_is pathflag' -a '(__settings_options pointer-value)'
    complete -c $program -n '__settings_is scalar' -a '(__settings_options element)'
    complete -c $program -n '__settings_is bool' -a 'true false yes no'
    complete -c $program -n '__settings_is watch' -a '(__settings_keys)' -d key
    complete -c $program -n '__settings_is watch' -a '(__settings_options after)'
    complete -c $program -n '__settings_is pointer' -a '(__settings_paths)' -d pointer
    complete -c $program -n '__settings_is file' -F -a -
    complete -c $program -n '__settings_is complete' -a 'domains keys paths values verbs options'
    complete -c $program -n '__settings_is sync' -a 'init status log carry remote leave --watch'
    complete -c $program -n '__settings_is conflicts' -a '(__settings_domains)' -d domain
    complete -c $program -n '__settings_is conflicts' -a '(__settings_options key)'
    complete -c $program -n '__settings_is gitfile' -F
    complete -c $program -n '__settings_is gitfile' -a '(__settings_options after)'
    complete -c $program -n '__settings_is gitsetup' -a '(__settings_options key)'
    complete -c $program -n '__settings_is folder' -a '(__fish_complete_directories)'
end
