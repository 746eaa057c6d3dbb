import PlistModel
import PlistCodecs
import SettingsStore

/// The options that address a place inside a domain and say how values travel as JSON:
/// `-p POINTER`, `--path-json '["a",0]'`, `--json`, `--insert`, `--exact`, `--merge`.
///
/// A positional key is always one literal top-level key. `-p` and `--path-json` are
/// options only with their argument after them, so `defaults read D -p`, which reads
/// the key `-p`, keeps its meaning.
struct PathOptions {
    var path: PlistKeyPath?
    var json = false
    var insert = false
    var exact = false
    var merge = false
    /// `import --replace`: the file becomes the whole domain.
    var replace = false
    /// `read --source`: say where the value comes from: managed, user, system or default.
    var source = false
    /// `read D --with-defaults`, `export D … --with-defaults`: the domain as readers see
    /// it (the layers applied, the schema's defaults filled in).
    var withDefaults = false
    /// `read D K --gvariant`: a desktop key's GVariant text, as `gsettings get` prints it.
    var gvariant = false

    /// Takes the options out of `words`, wherever they stand, and returns the rest.
    /// `allowed` names the ones the verb takes; others are left in the words.
    static func extract(_ words: [Token], allowed: Set<String>) throws(CLIError) -> (PathOptions, [Token]) {
        var options = PathOptions()
        var rest: [Token] = []
        var i = 0
        while i < words.count {
            let word = words[i].text
            let takesIt = allowed.contains(word)
            switch word {
            case "-p" where takesIt && i + 1 < words.count, "--path-json" where takesIt && i + 1 < words.count:
                guard options.path == nil else { throw CLIError.usage("give one -p or --path-json") }
                options.path = try parsePath(word, words[i + 1].text)
                i += 1
            case "--json" where takesIt: options.json = true
            case "--insert" where takesIt: options.insert = true
            case "--exact" where takesIt: options.exact = true
            case "--merge" where takesIt: options.merge = true
            case "--replace" where takesIt: options.replace = true
            case "--source" where takesIt: options.source = true
            case "--with-defaults" where takesIt: options.withDefaults = true
            case "--gvariant" where takesIt: options.gvariant = true
            default: rest.append(words[i])
            }
            i += 1
        }
        return (options, rest)
    }

    static func parsePath(_ flag: String, _ text: String) throws(CLIError) -> PlistKeyPath {
        do throws(KeyPathError) {
            return flag == "-p" ? try PlistKeyPath(pointer: text) : try PlistKeyPath(json: text)
        } catch {
            throw CLIError.badPointer(error, flag: flag)
        }
    }

    /// The path, which must name a place below the domain's root.
    func placeInside() throws(CLIError) -> PlistKeyPath? {
        if let path, path.segments.isEmpty { throw CLIError.badPointer(.wholeDomain, flag: "-p") }
        return path
    }
}
