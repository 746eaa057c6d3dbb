import PlistModel
import PlistCodecs
import SettingsStore

enum ReadCommand {
    /// `read`, `read D`, `read D K`, `read D -p POINTER`; `--json` for the JSON mapping.
    static func read(_ context: inout Context, _ arguments: [Token]) throws {
        let (options, arguments) = try PathOptions.extract(arguments, allowed: Verb.optionNames(of: "read"))
        let streams = context.streams
        let render = { (value: PlistValue, bare: Bool) -> [UInt8] in
            options.json
                ? jsonOutput(value, streams) : bare ? DefaultsPrinter.renderBare(value) : DefaultsPrinter.render(value)
        }
        try expectAtMost(options.path == nil ? 2 : 1, arguments)
        guard let domainToken = arguments.first else {
            guard options.path == nil else { throw CLIError.usage("-p needs a domain") }
            context.output.append(contentsOf: render(.dict(try everyDomain(&context)), false))
            return
        }
        let domain = try context.domainName(domainToken)
        if arguments.count == 1, options.path == nil {
            do {
                // Plain `read D` is the user's file, as defaults prints it; the layers and the
                // schema's defaults only with --with-defaults.
                if !options.withDefaults, !options.json {
                    let text = try context.store.output(of: domain, host: context.host, as: .defaults) { values in
                        guard !values.isEmpty else { throw CLIError.domainMissing(domainToken.text, file: domain.file) }
                    }
                    try printed(text, &context)
                    return
                }
                var values = try context.store.load(domain, host: context.host)?.values ?? [:]
                if options.withDefaults { values = context.mergedView(of: domain, user: values) }
                guard !values.isEmpty else { throw CLIError.domainMissing(domainToken.text, file: domain.file) }
                if options.json {
                    context.output.append(contentsOf: render(.dict(values), false))
                } else {
                    try printed(DomainText(values, as: .defaults), &context)
                }
                return
            } catch StoreError.notADictionary(let path, _) where domain.isPath {
                // A file's root may be an array or a scalar (an app's list, an exported
                // value): shown whole, as any value is. Domains proper stay dictionaries.
                let root: PlistValue
                let bytes = try PlistFiles.read(path)
                do throws(PlistError) { root = try PropertyList.read(bytes).0 } catch {
                    throw StoreError.corrupt(path: path, error)
                }
                context.output.append(contentsOf: render(root, true))
                return
            }
        }
        let value: PlistValue, source: ValueSource
        do {
            (value, source) = try lookUp(&context, domain, domainToken, arguments, options)
        } catch let error as CLIError {
            guard case .pairMissing = error, options.path == nil else { throw error }
            throw try dottedHint(&context, domain, arguments) ?? error
        }
        if options.source { context.print(source.rawValue); return }
        context.output.append(contentsOf: render(value, true))
    }

    /// Out in pieces as it is made: a big domain's text is never whole in memory.
    private static func printed(_ text: DomainText, _ context: inout Context) throws {
        try text.write { piece in
            var piece = Array(piece)
            context.stream(&piece)
        }
    }

    /// `read D window.width` of a missing key, where `window` is a dictionary: the key
    /// is literal (as in defaults), so say how to reach inside instead (git and gsettings
    /// users write dotted names).
    private static func dottedHint(_ context: inout Context, _ domain: DomainName, _ arguments: [Token]) throws
        -> CLIError?
    {
        let key = arguments[1].text
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1, parts.allSatisfy({ !$0.isEmpty }),
            case .dict? = try context.store.value(forKey: parts[0], in: domain, host: context.host)
        else { return nil }
        return CLIError.pairMissingInside(domain: arguments[0].text, key: key, pointer: PlistKeyPath(parts).pointer)
    }

    /// `read-type D K`, `read-type D -p POINTER`: `Type is boolean`.
    static func readType(_ context: inout Context, _ arguments: [Token]) throws {
        let (options, arguments) = try PathOptions.extract(arguments, allowed: Verb.optionNames(of: "read-type"))
        guard arguments.count + (options.path == nil ? 0 : 1) >= 2 else {
            throw CLIError.usage("read-type needs a domain and a key")
        }
        try expectAtMost(options.path == nil ? 2 : 1, arguments)
        let (value, _) = try lookUp(&context, try context.domainName(arguments[0]), arguments[0], arguments, options)
        context.print("Type is \(TypeTable.row(for: value).word)")
    }

    /// The value of the key (`arguments[1]`) or of the path, as a reader gets it, and
    /// where it comes from (see `Context.resolve`); only its top-level key is built from
    /// the file. A schema's default counts for a plain key, as gsettings reads one.
    static func lookUp(
        _ context: inout Context, _ domain: DomainName, _ domainToken: Token,
        _ arguments: [Token], _ options: PathOptions
    ) throws -> (PlistValue, ValueSource) {
        let path = options.path ?? PlistKeyPath([arguments[1].text])
        let name = options.path == nil ? arguments[1].text : path.pointer
        guard !path.segments.isEmpty else {
            guard let values = try context.store.load(domain, host: context.host)?.values, !values.isEmpty else {
                throw CLIError.domainMissing(domainToken.text, file: domain.file)
            }
            return (.dict(values), .user)
        }
        guard let (top, source) = try context.resolve(path.segments[0], in: domain),
            options.path == nil || source != .default,
            let value = PlistKeyPath(Array(path.segments.dropFirst())).jsonValue(inside: top)
        else {
            throw CLIError.pairMissing(domain: domainToken.text, key: name)
        }
        return (value, source)
    }

    /// Every domain keyed by its name, the global one as NSGlobalDomain. A file that
    /// cannot be read is one line on stderr and exit 3 at the end; the others are still
    /// shown, so one bad file does not hide every setting.
    static func everyDomain(_ context: inout Context) throws -> PlistDictionary {
        var all = PlistDictionary()
        let names = [DomainName.global] + (try context.store.domainNames()).map { DomainName.named($0) }
        for name in names {
            do {
                if let values = try context.store.load(name, host: context.host)?.values, !values.isEmpty {
                    all[name.displayName] = .dict(values)
                }
            } catch {
                context.report(error)
            }
        }
        return all
    }
}
