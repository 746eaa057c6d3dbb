import PlistModel
import SettingsStore

/// Which changes `capture` hides: keys that change by themselves as an app runs (window
/// frames, timestamps, counters, recent-file lists), not because a person changed a
/// setting. A pattern is a shell pattern; one without a leading `/` is matched, in either
/// case, against each key on a leaf's path, one with a `/` against its whole pointer.
public struct NoiseFilter: Sendable {
    /// The rules `capture` uses unless `--all` (the man page lists them).
    public static let defaultPatterns = [
        "*window*frame*", "*frame", "*geometry*", "*splitview*", "*timestamp*", "*time-stamp*", "*last*used*",
        "*last*launch*", "*last*open*", "*last*run*", "*last*seen*", "*last*check*", "*launch*count*",
        "*usage*count*", "*run*count*", "*open*count*", "*recent*", "*mru*", "*history*",
    ]

    /// The shell patterns; a leaf matching any one is hidden.
    public var patterns: [String]

    /// A filter of `patterns`.
    public init(_ patterns: [String]) { self.patterns = patterns }

    /// Whether the leaf at `path` is noise.
    public func hides(_ path: PlistKeyPath) -> Bool {
        patterns.contains { pattern in
            pattern.hasPrefix("/")
                ? FileSystem.matches(path.pointer, pattern: pattern, caseFold: true)
                : path.segments.contains { FileSystem.matches($0, pattern: pattern, caseFold: true) }
        }
    }

    /// `difference` with every hidden leaf's change undone in the new state, so neither
    /// its text nor its commands mention it; and how many leaves were hidden.
    public func apply(to difference: StateDiff) -> (StateDiff, hidden: Int) {
        var hidden = 0
        let domains = difference.domains.compactMap { domain -> StateDiff.Domain? in
            let noisy = domain.leaves.filter { hides($0.path) }
            guard !noisy.isEmpty else { return domain }
            // Set in one pass: a capture of a big domain may hide thousands of leaves.
            var tops = TopLevelEdits(domain.new ?? [:])
            for leaf in noisy {
                tops.edit(leaf.path.segments[0]) { top in
                    // A leaf that cannot be put back (a path error) leaves its key as it is.
                    var reverted = top
                    guard revert(leaf, in: &reverted, old: domain.old ?? [:]) else { return }
                    top = reverted
                    hidden += 1
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
