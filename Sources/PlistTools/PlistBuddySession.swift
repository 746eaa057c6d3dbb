import PlistCodecs
import PlistModel

/// One PlistBuddy session over a document: each command line run against the root held in
/// memory, as PLISTBUDDY(8) describes them. Reading and writing the file is the verb's: a
/// command that needs it (`Save`, `Revert`, `Exit`) is handed back as an `Action`.
package struct PlistBuddySession {
    package var root: PlistValue
    /// Whether a command changed the root since it was read or saved.
    package var changed = false
    /// `-x`: `Print` writes an XML property list.
    package let xml: Bool
    /// Reads a file `Merge` and `Import` name.
    let readFile: (String) throws -> [UInt8]

    package init(root: PlistValue, xml: Bool, readFile: @escaping (String) throws -> [UInt8]) {
        (self.root, self.xml, self.readFile) = (root, xml, readFile)
    }

    /// What the verb does after a command.
    package enum Action: Equatable { case none, save, revert, exit }

    /// What a command line printed, the error it met (one line, in PlistBuddy's words), and
    /// what the verb must do.
    package struct Result {
        package var output: [UInt8] = []
        package var error: String?
        package var action = Action.none
    }

    /// Whether a command line only reads (`Print`, `Help`): such commands need no lock.
    package static func onlyLooks(_ line: String) -> Bool {
        let first = words(line).first ?? ""
        let name = first.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return ["print", "help", "exit", "quit", "bye", "revert", ""].contains(name.lowercased())
    }

    package static let types = ["string", "array", "dict", "bool", "real", "integer", "date", "data"]

    package mutating func run(_ line: String) -> Result {
        var result = Result()
        var words = Self.words(line)
        // `Print:Key` and `Set:Key 42`, as scripts write them, are `Print :Key`.
        if let first = words.first, let colon = first.firstIndex(of: ":"), colon != first.startIndex {
            words[0...0] = [String(first[..<colon]), String(first[colon...])]
        }
        guard let name = words.first else { return result }
        let args = Array(words.dropFirst())
        do throws(PlistBuddyError) {
            switch name.lowercased() {
            case "help": result.output = Array(PlistBuddyHelp.commands.utf8)
            case "exit", "quit", "bye": result.action = .exit
            case "save": result.action = .save
            case "revert": result.action = .revert
            case "clear":
                let type = args.first ?? "dict"
                root = try Self.empty(type)
                changed = true
            case "print": result.output = try print(args.first)
            case "set":
                guard args.count >= 1 else { throw .usage("Set") }
                let entry = PlistBuddyEntry(args[0])
                guard let old = entry.value(in: root) else { throw .doesNotExist("Set", entry.text) }
                let text = args.dropFirst().joined(separator: " ")
                let value: PlistValue
                switch old {
                case .dict, .array: throw .containers
                default: value = try Self.value(of: PlutilText.typeName(old), text)
                }
                try change(entry, .set(value, creating: false), "Set")
            case "add":
                guard args.count >= 2 else { throw .usage("Add") }
                let entry = PlistBuddyEntry(args[0])
                let value = try Self.value(of: Self.typeName(args[1]), args.dropFirst(2).joined(separator: " "))
                guard let changed = entry.changing(root, .add(value)) else {
                    throw entry.value(in: root) != nil
                        ? .alreadyExists("Add", entry.text) : .doesNotExist("Add", entry.text)
                }
                (root, self.changed) = (changed, true)
            case "delete", "remove":
                guard let text = args.first else { throw .usage("Delete") }
                try change(PlistBuddyEntry(text), .delete, "Delete")
            case "copy":
                guard args.count == 2 else { throw .usage("Copy") }
                let source = PlistBuddyEntry(args[0]), destination = PlistBuddyEntry(args[1])
                guard let value = source.value(in: root) else { throw .doesNotExist("Copy", source.text) }
                guard let changed = destination.changing(root, .add(value)) else {
                    throw destination.value(in: root) != nil
                        ? .alreadyExists("Copy", destination.text) : .doesNotExist("Copy", destination.text)
                }
                (root, self.changed) = (changed, true)
            case "merge":
                guard let file = args.first else { throw .usage("Merge") }
                try merge(file, into: PlistBuddyEntry(args.count > 1 ? args[1] : ":"))
            case "import":
                guard args.count == 2 else { throw .usage("Import") }
                let bytes: [UInt8]
                do { bytes = try readFile(args[1]) } catch { throw .unreadableFile("Import", args[1]) }
                try change(PlistBuddyEntry(args[0]), .set(.data(bytes), creating: true), "Import")
            default: throw .unrecognizedCommand
            }
        } catch {
            result.error = error.message
        }
        return result
    }

    private mutating func change(_ entry: PlistBuddyEntry, _ change: PlistBuddyEntry.Change, _ command: String)
        throws(PlistBuddyError)
    {
        guard let changed = entry.changing(root, change) else { throw .doesNotExist(command, entry.text) }
        (root, self.changed) = (changed, true)
    }

    /// `Print [entry]`: the text of PLISTBUDDY(8) (`Dict {`, four spaces a level), or with
    /// `-x` an XML property list of the value; a line's end after it.
    private func print(_ text: String?) throws(PlistBuddyError) -> [UInt8] {
        let entry = PlistBuddyEntry(text ?? ":")
        guard let value = entry.value(in: root) else { throw .doesNotExist("Print", entry.text) }
        if xml { return XMLWriter.encode(value) }
        var out: [UInt8] = []
        PlistBuddyText.append(value, level: 0, to: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// `Merge FILE [ENTRY]`: a dictionary's keys added to the dictionary at the entry (a key
    /// there already is kept), or the file's root, or each element of its array, added to
    /// the array at the entry.
    private mutating func merge(_ file: String, into entry: PlistBuddyEntry) throws(PlistBuddyError) {
        let other: PlistValue
        do { other = try PropertyList.read(try readFile(file)).0 } catch { throw .unreadableFile("Merge", file) }
        guard let target = entry.value(in: root) else { throw .doesNotExist("Merge", entry.text) }
        let merged: PlistValue
        switch (target, other) {
        case (.dict(var dict), .dict(let adding)):
            for item in adding.uniqueEntries where dict[item.key] == nil { dict[item.key] = item.value }
            merged = .dict(dict)
        case (.array(let items), .array(let adding)): merged = .array(items + adding)
        case (.array(let items), _): merged = .array(items + [other])
        default: throw .mergeIntoScalar
        }
        try change(entry, .set(merged, creating: false), "Merge")
    }

    private static func typeName(_ word: String) throws(PlistBuddyError) -> String {
        let type = word.lowercased()
        guard types.contains(type) else { throw .unrecognizedType(word) }
        return type
    }

    static func empty(_ type: String) throws(PlistBuddyError) -> PlistValue {
        try value(of: typeName(type), "")
    }

    /// A value of `type` (`-type`'s names or PlistBuddy's) from its text: `true`, `yes` and
    /// `1` are true; integers and reals in decimal; dates as `Print` shows them or ISO 8601;
    /// data as the text's bytes.
    static func value(of type: String, _ text: String) throws(PlistBuddyError) -> PlistValue {
        switch type {
        case "string": return .string(text)
        case "dict", "dictionary": return .dict([:])
        case "array": return .array([])
        case "bool":
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0", "": return .bool(false)
            default: throw .badValue("bool", text)
            }
        case "integer":
            if text.isEmpty { return .int(0) }
            guard let i = PlistInteger.parse(text.utf8, allowHex: false) else { throw .badValue("integer", text) }
            return .int(i)
        case "real", "float":
            if text.isEmpty { return .double(0) }
            guard RealText.isDecimal(text.utf8), let d = Double(text) else { throw .badValue("real", text) }
            return .double(d)
        case "date":
            if text.isEmpty { return .date(PlistDate(secondsSince2001: 0)) }
            guard let date = PlistBuddyText.date(text) else { throw .badValue("date", text) }
            return .date(date)
        default: return .data(Array(text.utf8))
        }
    }

    /// A command line's words: spaces part them, `"…"` and `'…'` hold spaces, and a
    /// backslash before a space or a quote keeps it (any other backslash stays, for entries).
    static func words(_ line: String) -> [String] {
        var words: [String] = [], current: [UInt8] = [], inWord = false
        var quote: UInt8?
        var bytes = Array(line.utf8)[...]
        while let b = bytes.popFirst() {
            if let q = quote {
                if b == q {
                    quote = nil
                } else if b == UInt8(ascii: "\\"), q == UInt8(ascii: "\""), let next = bytes.first,
                    next == q || next == UInt8(ascii: "\\")
                {
                    current.append(bytes.removeFirst())
                } else {
                    current.append(b)
                }
                continue
            }
            switch b {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                if inWord { words.append(String(decoding: current, as: UTF8.self)) }
                (current, inWord) = ([], false)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                (quote, inWord) = (b, true)
            case UInt8(ascii: "\\"):
                inWord = true
                if let next = bytes.first, [UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "'")].contains(next) {
                    current.append(bytes.removeFirst())
                } else {
                    current.append(b)
                }
            default:
                current.append(b)
                inWord = true
            }
        }
        if inWord { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }
}

/// What a PlistBuddy command says when it cannot be done, in PlistBuddy's words.
package enum PlistBuddyError: Error, Equatable {
    case doesNotExist(String, String)
    case alreadyExists(String, String)
    case containers
    case unrecognizedType(String)
    case unrecognizedCommand
    case usage(String)
    case badValue(String, String)
    case unreadableFile(String, String)
    case mergeIntoScalar

    package var message: String {
        switch self {
        case .doesNotExist(let command, let entry): "\(command): Entry, \"\(entry)\", Does Not Exist"
        case .alreadyExists(let command, let entry): "\(command): \"\(entry)\" Entry Already Exists"
        case .containers: "Set: Cannot Perform Set On Containers"
        case .unrecognizedType(let type): "Unrecognized Type: \(type)"
        case .unrecognizedCommand: "Unrecognized Command"
        case .usage(let command): "\(command): Invalid Arguments (see Help)"
        case .badValue(let type, let text): "Invalid \(type) value: \(text)"
        case .unreadableFile(let command, let file): "\(command): Error Reading File: \(file)"
        case .mergeIntoScalar: "Merge: Can't Add Entries To A Value That Is Not A Dict Or Array"
        }
    }
}
