import PlistModel
import SettingsStore

/// Which changes `capture` hides: keys that change by themselves as an app runs (window
/// frames, timestamps, counters, recent-file lists), not because a person changed a
/// setting. A pattern is a shell pattern; one without a leading `/` is matched, in either
/// case, against each key on a leaf's path, one with a `/` against its whole pointer.
/// The built-in rules never hide a boolean (a checkbox is a setting, whatever its name:
/// the Dock's `show-recents`), and their recent and history patterns hide only lists
/// (an array, data or an empty dictionary), not a number or a flag (`History/enabled`);
/// a person's own patterns (`--ignore`) hide whatever they match.
public struct NoiseFilter: Sendable {
    /// Names of keys that change by themselves, of any type but a boolean: window frames,
    /// timestamps and counters. (The man page lists them.)
    public static let defaultPatterns = [
        "*window*frame*", "*frame", "*geometry*", "*splitview*", "*timestamp*", "*time-stamp*", "*last*used*",
        "*last*launch*", "*last*open*", "*last*run*", "*last*seen*", "*last*check*", "*launch*count*",
        "*usage*count*", "*run*count*", "*open*count*",
    ]

    /// Names of lists that grow by themselves (recent files, history); only a list is
    /// hidden. (The man page lists them.)
    public static let listPatterns = ["*recent*", "*mru*", "*history*"]

    /// The person's own shell patterns; a leaf matching any one is hidden.
    public var patterns: [String]
    /// Whether the built-in rules (`defaultPatterns`, `listPatterns`) apply too.
    public var builtIn: Bool

    /// A filter of `patterns`, and of the built-in rules when `builtIn`.
    public init(_ patterns: [String], builtIn: Bool = false) { (self.patterns, self.builtIn) = (patterns, builtIn) }

    /// What `capture` hides unless told otherwise: the built-in rules.
    public static let standard = NoiseFilter([], builtIn: true)

    /// Whether a pattern matches the leaf at `path`.
    private static func matches(_ path: PlistKeyPath, _ patterns: [String]) -> Bool {
        patterns.contains { pattern in
            pattern.hasPrefix("/")
                ? FileSystem.matches(path.pointer, pattern: pattern, caseFold: true)
                : path.segments.contains { FileSystem.matches($0, pattern: pattern, caseFold: true) }
        }
    }

    /// Whether the change of `leaf` is noise.
    public func hides(_ leaf: LeafChange) -> Bool {
        if Self.matches(leaf.path, patterns) { return true }
        guard builtIn else { return false }
        let values = [leaf.old, leaf.new].compactMap { $0 }
        if values.contains(where: { if case .bool = $0 { true } else { false } }) { return false }
        if Self.matches(leaf.path, Self.defaultPatterns) { return true }
        let lists = values.allSatisfy {
            switch $0 {
            case .array, .data: true
            case .dict(let dict): dict.isEmpty
            default: false
            }
        }
        return lists && Self.matches(leaf.path, Self.listPatterns)
    }

    /// `difference` with every hidden leaf's change undone in the new state, so neither
    /// its text nor its commands mention it; and how many leaves were hidden.
    public func apply(to difference: StateDiff) -> (StateDiff, hidden: Int) {
        let (kept, hidden) = filter(difference)
        return (kept, hidden.count)
    }

    /// `difference` with every hidden leaf's change undone in the new state, and the
    /// leaves hidden, in the difference's order.
    public func filter(_ difference: StateDiff) -> (StateDiff, hidden: [StateDiff.Place]) {
        var hidden: [StateDiff.Place] = []
        let domains = difference.domains.compactMap { domain -> StateDiff.Domain? in
            let noisy = domain.leaves.filter(hides)
            guard !noisy.isEmpty else { return domain }
            // Set in one pass: a capture of a big domain may hide thousands of leaves.
            var tops = TopLevelEdits(domain.new ?? [:])
            for leaf in noisy {
                tops.edit(leaf.path.segments[0]) { top in
                    // A leaf that cannot be put back (a path error) leaves its key as it is.
                    var reverted = top
                    guard revert(leaf, in: &reverted, old: domain.old ?? [:]) else { return }
                    top = reverted
                    hidden.append(StateDiff.Place(domain: domain.name, path: leaf.path))
                }
            }
            let kept = tops.result
            return StateDiff.domain(domain.name, domain.old, domain.new == nil && kept.isEmpty ? nil : kept)
        }
        return (StateDiff(domains: domains), hidden)
    }

    /// Puts the leaf's old value back at its place in `top`, the value of its top-level key
    /// (removing it when it had none, and any dictionary on the way that only held it and
    /// was not there before).
    private func revert(_ leaf: LeafChange, in top: inout PlistValue?, old: PlistDictionary) -> Bool {
        let segments = leaf.path.segments
        let key = segments[0]
        do throws(KeyPathError) {
            if let value = leaf.old {
                try leaf.path.set(value, in: &top)
            } else {
                _ = try leaf.path.remove(in: &top)
                // Dictionaries the leaf's arrival made, from the deepest up.
                for depth in stride(from: segments.count - 1, through: 1, by: -1) {
                    let parent = PlistKeyPath(Array(segments.prefix(depth)))
                    let now = top.flatMap { parent.value(inside: .dict([key: $0])) }
                    guard case .dict(let dict)? = now, dict.isEmpty,
                        parent.value(in: old) == nil
                    else { break }
                    if depth == 1 { top = nil } else { _ = try parent.remove(in: &top) }
                }
            }
        } catch { return false }
        return true
    }
}
