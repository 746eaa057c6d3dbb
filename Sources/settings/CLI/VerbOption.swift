/// One option of a verb, declared once in the verb table: `help VERB` lists it, the verb's
/// parser takes only the declared ones, and the completion scripts offer it where it may
/// stand (`settings complete options VERB PLACE`).
struct VerbOption: Sendable {
    /// Where on the command line an option stands, which is where completion offers it.
    enum Place: String, Sendable, CaseIterable {
        /// Before the first argument: `check -v`, `git-setup --global`, `sync --watch`.
        case start
        /// Right after the domain, in the key's place: `-p`, `--path-json`, `--force`, `--all`.
        case key
        /// In the value's place, after the key (`write`): the type flags and `--json`.
        case value
        /// After `write D -p POINTER`: the type flags, `--json`, `--insert`, `--exact`.
        case pointerValue = "pointer-value"
        /// After a collection flag, among the elements: the scalar type flags.
        case element
        /// After the other arguments (`read D K --json`), or anywhere after the domain (`watch`).
        case after
    }

    let name: String
    /// What the word that follows the option is; nil for a switch.
    let argument: ArgumentKind?
    let summary: String
    let places: [Place]
    /// Whether it may be given more than once (`watch -p`); completion offers the others once.
    let repeats: Bool

    init(_ name: String, _ summary: String, argument: ArgumentKind? = nil, at places: [Place], repeats: Bool = false) {
        (self.name, self.summary, self.argument, self.places, self.repeats) = (
            name, summary, argument, places, repeats
        )
    }

    /// How help shows it: `-p <pointer>`, `--json`.
    var synopsis: String { argument.map { "\(name) \($0.placeholder)" } ?? name }

    static let pointer = VerbOption(
        "-p", "a place inside a value, as an RFC 6901 pointer: -p /window/frame/0",
        argument: .pointer, at: [.key])
    static let pathJSON = VerbOption(
        "--path-json", "the same place as a jq path: --path-json '[\"window\",0]'",
        argument: .jqPath, at: [.key])
    /// `--force` right after the domain (`Context.takeForce`).
    static func force(_ summary: String) -> VerbOption { VerbOption("--force", summary, at: [.key]) }
}
