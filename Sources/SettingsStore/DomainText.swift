import PlistCodecs
import PlistModel

/// A domain's whole text in one form (`DomainStore.output(of:as:checking:)`), ready to be
/// written: straight from its file when that needs no values, else from its values. Either
/// way it is written the same: `write(to:)`, in pieces, so a big domain is never held
/// twice.
package struct DomainText {
    /// The whole-domain texts, and which files each is written straight from.
    package enum Form {
        /// XML; straight from a binary file (`export D -`).
        case xml
        /// Compact JSON; straight from an XML file (`export D --json`).
        case json
        /// What `read D` prints; straight from an XML file.
        case defaults
        /// A binary property list; straight from an XML file (`export D PATH`).
        case binary
    }

    enum Source {
        case values(PlistDictionary)
        /// A binary file, mapped and checked whole, whose XML is written from its bytes,
        /// its pages given back after each piece (`MappedFile.dropPages`).
        case binary(MappedFile, BinaryReader.Layout)
        /// The text itself, written from the XML file as it was read (`XMLReader.text`,
        /// `XMLReader.binary`).
        case text([UInt8])
        /// An XML file, mapped, read and numbered, whose binary plist is written in
        /// pieces, the mapping's pages given back as it goes.
        case binaryPlist(XMLBinaryPlist)
    }

    let form: Form
    let source: Source
    /// The entries from which a domain written from its values as `read D`'s text is
    /// printed on two threads (`DefaultsPrinter.render`): tests set less.
    package var halvesFrom = 20_000

    init(_ form: Form, _ source: Source) { (self.form, self.source) = (form, source) }

    /// `values` as `form`: what a caller that has the values (merged with the layers, say)
    /// writes, as the store writes a file it had to read.
    package init(_ values: PlistDictionary, as form: Form) { self.init(form, .values(values)) }

    /// Hands the whole text to `sink` in pieces of about a megabyte (a text read whole, in
    /// one). Throws what `sink` throws, and `PlistError` for a mapped binary file changed
    /// since it was checked.
    package func write(to sink: (ArraySlice<UInt8>) throws -> Void) throws {
        let chunk = 1 << 20
        switch source {
        case .text(let text): try sink(text[...])
        case .binaryPlist(let plist): try plist.write(to: sink)
        case .binary(let file, let layout):
            try XMLWriter.encode(binary: file.bytes, layout: layout, chunk: 1 << 18) { piece in
                try sink(piece)
                file.dropPages()
            }
        case .values(let values):
            switch form {
            case .xml: try XMLWriter.encode(.dict(values), chunk: chunk, to: sink)
            case .json: try JSONWriter.encode(.dict(values), pretty: false, chunk: chunk) { try sink($0[...]) }
            case .binary: try sink(BinaryWriter.encode(.dict(values))[...])
            case .defaults:
                // The printer's `flush` cannot throw: the first failure is kept, and thrown
                // once it is done.
                var failure: (any Error)?
                var piece: [UInt8] = []
                piece.reserveCapacity(chunk + 4096)
                DefaultsPrinter.render(
                    .dict(values), into: &piece,
                    flush: { piece in
                        if failure == nil {
                            do { try sink(piece[...]) } catch { failure = error }
                        }
                        piece.removeAll(keepingCapacity: true)
                    },
                    inParallel: { work in
                        let thread = Background(work)
                        return { thread.join() }
                    }, halvesFrom: halvesFrom)
                if let failure { throw failure }
            }
        }
    }
}
