/// `plutil -help`: the commands and options, in this project's words.
package enum PlutilHelp {
    package static func text(program: String) -> String {
        """
        usage: \(program) [command] [options] file...
        A file named - is standard input. Apple's plutil, on the settings engine: files
        changed in place are replaced atomically, under a lock, keeping their mode.

        Commands (-lint when none is given):
          -help                           this text
          -lint                           check that each file is a property list (-s: say only problems)
          -p                              print each file for people (not a stable format)
          -convert FMT                    write each file as FMT: xml1 binary1 json swift objc
                                          (objc -header also writes a .h)
          -insert KEYPATH -TYPE VALUE     add a value; an array index inserts before it; -append adds
                                          to the array at KEYPATH
          -replace KEYPATH -TYPE VALUE    set a value, added if absent
          -remove KEYPATH                 remove a value
          -extract KEYPATH FMT            write the value at KEYPATH as FMT (xml1 binary1 json raw swift
                                          objc; -expect TYPE checks its type first)
          -type KEYPATH                   print the type of the value at KEYPATH (-expect TYPE)
          -create FMT                     write an empty dictionary as FMT

        KEYPATH: keys joined by . (\\. is a dot in a key); a number is an array's index.
        TYPE: -bool YES|NO, -integer N, -float X, -string S, -date 2024-01-02T03:04:05Z,
              -data BASE64, -xml TEXT, -json TEXT, -dictionary, -array (the last two take no value)
        raw prints a scalar's text, a dictionary's keys a line each, an array's count.

        Options:
          -s          print nothing on success
          -o PATH     write the result to PATH (- is standard output)
          -e EXT      write the result beside the file, with extension EXT
          -r          indent JSON, keys sorted
          -n          no newline after raw and -type output
          --          every later word is a file

        Exit status: 0 when every file was done, 1 when any failed.
        Also: settings help plutil; man settings (PLUTIL).

        """
    }
}
