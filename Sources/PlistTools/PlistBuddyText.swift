import PlistCodecs
import PlistModel

/// PlistBuddy's `Print`: `Dict {` and `Array {` with their contents four spaces in, a key
/// as `key = value`; strings as they are, reals as `%f`, dates as `date(1)` shows them in
/// UTC, and data as its raw bytes (scripts pipe a certificate out of a provisioning
/// profile that way).
package enum PlistBuddyText {
    static func append(_ value: PlistValue, level: Int, to out: inout [UInt8]) {
        let indent = Array(repeating: UInt8(ascii: " "), count: 4 * (level + 1))
        switch value {
        case .dict(let dict):
            out += Array("Dict {\n".utf8)
            for entry in dict.uniqueEntries {
                out += indent + Array((entry.key + " = ").utf8)
                append(entry.value, level: level + 1, to: &out)
                out.append(UInt8(ascii: "\n"))
            }
            out += indent.dropLast(4) + Array("}".utf8)
        case .array(let items):
            out += Array("Array {\n".utf8)
            for item in items {
                out += indent
                append(item, level: level + 1, to: &out)
                out.append(UInt8(ascii: "\n"))
            }
            out += indent.dropLast(4) + Array("}".utf8)
        case .string(let s): out += Array(s.utf8)
        case .data(let bytes): out += bytes
        case .date(let date): out += Array(text(date).utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .int(let i): out += Array(i.description.utf8)
        case .float(let f): out += Array(PlutilText.fixed(Double(f)).utf8)
        case .double(let d): out += Array(PlutilText.fixed(d).utf8)
        }
    }

    static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Tue Jan 02 03:04:05 UTC 2024`.
    static func text(_ date: PlistDate) -> String {
        guard let c = date.components else { return RealText.shortest(date.secondsSince2001) }
        let days = Int((c.unixSeconds - Int64(c.hour * 3600 + c.minute * 60 + c.second)) / 86_400)
        let weekday = weekdays[((days % 7) + 7) % 7]
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return
            "\(weekday) \(months[c.month - 1]) \(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) UTC \(c.year)"
    }

    /// A date as `Print` shows one (the zone UTC or GMT, the weekday not checked), or as
    /// ISO 8601 (`2024-01-02T03:04:05Z`).
    static func date(_ text: String) -> PlistDate? {
        if let date = XMLDate.parse(text.utf8) { return date }
        let words = text.split(separator: " ")
        guard words.count == 6, ["UTC", "GMT"].contains(words[4]),
            let month = months.firstIndex(of: String(words[1])), let day = Int(words[2]), let year = Int64(words[5])
        else { return nil }
        let time = words[3].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        let civil = CivilTime(year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time[2])
        guard civil.isValid, (0..<24).contains(time[0]), (0..<60).contains(time[1]), (0..<60).contains(time[2]) else {
            return nil
        }
        return PlistDate(civil)
    }
}

/// PlistBuddy's `Help` and `-h`, in this project's words.
package enum PlistBuddyHelp {
    package static func usage(program: String) -> String {
        "Usage: \(program) [-cxlh] <file.plist>\n"
            + "    -c \"<command>\" execute command, then exit (repeatable; every change saved once at the end)\n"
            + "    -x output will be in the form of an xml plist where appropriate\n"
            + "    -l the file is not reached through a symbolic link: a link is refused\n"
            + "    -h print the complete help info, with the command guide\n"
    }

    package static let commands = """
        Commands (a word each, any case):
            Help                          this text
            Exit                          end; changes not saved are dropped
            Save                          write the changes to the file, atomically
            Revert                        read the file again, dropping changes
            Clear [<type>]                make the root an empty value of type (dict)
            Print [<entry>]               print the value at entry, or the whole file
            Set <entry> <value>           change the value at entry (it must be there)
            Add <entry> <type> [<value>]  add a value at entry (it must not be there)
            Copy <from> <to>              copy the value at one entry to another
            Delete <entry>                remove the value at entry
            Merge <file> [<entry>]        add a file's keys (or items) to entry
            Import <entry> <file>         set entry to a file's bytes, as data

        Entries:
            keys joined by colons, a number for an array's item (from 0):
                :CFBundleShortVersionString
                :CFBundleDocumentTypes:2:CFBundleTypeExtensions
            a trailing colon adds after an array's last item (Add :List: string x);
            a backslash keeps the next character in a key (:a\\:b is the key "a:b").

        Types: string array dict bool real integer date data

        Examples:
            Set :CFBundleIdentifier com.example.app
            Add :CFBundleGetInfoString string "App version 1.0.1"
            Add :CFBundleDocumentTypes: dict
            Add :CFBundleDocumentTypes:0 dict
            Delete :CFBundleDocumentTypes:0
            Delete :CFBundleDocumentTypes

        """
}
