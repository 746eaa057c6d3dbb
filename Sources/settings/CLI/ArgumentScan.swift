/// The words after a verb, sorted into its arguments and options as the verb table
/// declares them: what `Verb.checkWords` checks before the verb runs, and what
/// `Completion` reads to know what the next word may be.
struct ArgumentScan {
    let verb: Verb
    var positionals: [String] = []
    var used: Set<String> = []
    /// The option whose argument comes next.
    var pending: VerbOption?
    /// Whether `-p` or `--path-json` stood in the key's place.
    var pointerInKeyPlace = false

    init(verb: Verb) { self.verb = verb }

    /// Where the value starts, for the verbs that take one (`write`, `check`).
    var valueIndex: Int? { verb.arguments.firstIndex(of: .value) }

    mutating func take(_ word: String) {
        if pending != nil {
            pending = nil
            return
        }
        let index = positionals.count
        // Among a value's words every word is the value's, but for `--json` and the
        // like where the value starts.
        if let valueIndex, index > valueIndex {
            positionals.append(word)
            return
        }
        if let option = verb.options.first(where: { $0.name == word }),
            option.places.contains(place(at: index)) || index != valueIndex
        {
            used.insert(word)
            if option.argument != nil { pending = option }
            if [.pointer, .jqPath].contains(option.argument), option.places == [.key], index == 1 {
                positionals.append(word)
                pointerInKeyPlace = true
            }
            return
        }
        positionals.append(word)
    }

    /// The kind of the argument at `index`, or nil past the last one.
    func kind(at index: Int) -> ArgumentKind? {
        if index < verb.arguments.count { return verb.arguments[index] }
        return verb.repeatsLast ? verb.arguments.last : nil
    }

    /// Where on the command line the word at `index` stands, for the options offered there.
    func place(at index: Int) -> VerbOption.Place {
        if let valueIndex, index >= valueIndex {
            if index > valueIndex { return .element }
            return pointerInKeyPlace ? .pointerValue : .value
        }
        if index == 0 { return .start }
        if index == 1 && verb.arguments.count > 1 { return .key }
        return .after
    }
}
