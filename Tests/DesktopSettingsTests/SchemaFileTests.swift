import Foundation
import PlistCodecs
import PlistModel
import SettingsStore
import XCTest

@testable import DesktopSettings

/// A compiled schema file read as GLib reads it: every key's type, default and rule.
final class SchemaFileTests: XCTestCase {
    func testEveryDefaultIsWhatGsettingsPrints() throws {
        let schema = try Fixture.schema()
        let expected = try Fixture.pairs("defaults.tsv")
        XCTAssertEqual(
            try schema.keys().map(\.name),
            expected.map(\.0).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        for (name, printed) in expected {
            let key = try XCTUnwrap(try schema.key(name), name)
            XCTAssertEqual(key.defaultValue.gvariantText, printed, name)
            XCTAssertEqual(try VariantParser.parse(printed, as: key.type), key.defaultValue, name)
        }
        XCTAssertEqual(schema.path, "/org/example/desktop/")
    }

    func testRulesAreGsettingsRanges() throws {
        let schema = try Fixture.schema()
        XCTAssertEqual(try schema.key("scheme")?.allowed, .enumeration(["default", "prefer-dark", "prefer-light"]))
        XCTAssertEqual(try schema.key("days")?.allowed, .flags(["monday", "tuesday", "wednesday"]))
        XCTAssertEqual(try schema.key("size")?.allowed, .choices(["small", "large"]))
        XCTAssertEqual(
            try schema.key("delay")?.allowed,
            .range(.unsigned(0, UInt8(ascii: "u")), .unsigned(3600, UInt8(ascii: "u"))))
        XCTAssertEqual(try schema.key("enabled")?.allowed, .any)
        XCTAssertEqual(
            try SchemaSource(environment: Fixture.environment()).schema("org.example.desktop.profile").path, nil)
    }

    func testRefusesWhatGSettingsRefuses() throws {
        let schema = try Fixture.schema()
        func refusal(_ key: String, _ text: String) throws -> String? {
            let key = try XCTUnwrap(try schema.key(key))
            return key.refusal(try VariantParser.parse(text, as: key.type))
        }
        XCTAssertNil(try refusal("scheme", "'prefer-dark'"))
        XCTAssertEqual(try refusal("scheme", "'dark'"), "'dark' is not one of default, prefer-dark, prefer-light")
        XCTAssertNil(try refusal("days", "['monday', 'wednesday']"))
        XCTAssertNotNil(try refusal("days", "['sunday']"))
        XCTAssertNotNil(try refusal("size", "'medium'"))
        XCTAssertNil(try refusal("delay", "uint32 3600"))
        XCTAssertEqual(try refusal("delay", "uint32 3601"), "3601 is outside 0 to 3600")
        // Refusals in words, not type codes.
        XCTAssertThrowsError(try Variant.from(.string("x"), as: .int32)) { error in
            XCTAssertEqual((error as? VariantParser.Failure)?.message, "a string is not an integer (int32)")
        }
        XCTAssertThrowsError(try VariantParser.parse("int32 5", as: .basic(UInt8(ascii: "u")))) { error in
            XCTAssertEqual(
                (error as? VariantParser.Failure)?.message,
                "an integer (int32) is given where an integer (uint32) is wanted")
        }
        XCTAssertNotNil(try refusal("scale", "0.4"))
        XCTAssertNotNil(try schema.key("enabled")!.refusal(.int32(1)))
    }

    func testListsSchemasAndRefusesMissingOnes() throws {
        let source = SchemaSource(environment: Fixture.environment())
        XCTAssertEqual(try source.ids(), ["org.example.desktop", "org.example.desktop.profile"])
        XCTAssertThrowsError(try source.schema("org.example.none")) { error in
            XCTAssertEqual(error as? DesktopError, .noSuchSchema("org.example.none"))
        }
        let none = SchemaSource(environment: Fixture.environment(["GSETTINGS_SCHEMA_DIR": "/nonexistent"]))
        XCTAssertThrowsError(try none.schema("org.example.desktop")) { error in
            XCTAssertEqual((error as? DesktopError)?.status, 3)
        }
    }

    /// The committed compiled file is what GLib's compiler makes of the XML beside it.
    func testCompiledFixtureIsTheXMLs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schemas-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(
            atPath: Fixture.folder + "/org.example.desktop.gschema.xml",
            toPath: folder + "/org.example.desktop.gschema.xml")
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["glib-compile-schemas", "--strict", folder]
        try compiler.run()
        compiler.waitUntilExit()
        XCTAssertEqual(compiler.terminationStatus, 0, "glib-compile-schemas (Debian: libglib2.0-bin) must run")
        XCTAssertEqual(
            FileManager.default.contents(atPath: folder + "/gschemas.compiled"),
            FileManager.default.contents(atPath: Fixture.folder + "/gschemas.compiled"))
    }

    /// Every cut and every flipped byte of a real file is refused or read, never a crash.
    func testCorruptFilesAreRefusedNeverTrusted() throws {
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: Fixture.folder + "/gschemas.compiled")).map {
            $0
        }
        var refused = 0, read = 0
        func attempt(_ candidate: [UInt8]) {
            do throws(DesktopError) {
                guard let item = try GVDB.root(of: candidate).item(Array("org.example.desktop".utf8)) else {
                    refused += 1
                    return
                }
                let schema = try DesktopSchema(id: "org.example.desktop", table: try item.subtable(), folder: "")
                for key in try schema.keys() { _ = key.defaultValue.gvariantText }
                read += 1
            } catch {
                XCTAssertEqual(error.status, 3, "\(error)")
                refused += 1
            }
        }
        // Every cut and byte in CI (`SETTINGS_DESKTOP_ALL=1`); here a fifth of them, and every
        // byte of the header and the root table.
        let step = ProcessInfo.processInfo.environment["SETTINGS_DESKTOP_ALL"] == "1" ? 1 : 5
        for length in stride(from: 0, to: bytes.count, by: step) { attempt(Array(bytes.prefix(length))) }
        for position in bytes.indices where position < 300 || position % step == 0 {
            var flipped = bytes
            flipped[position] ^= 0xA5
            attempt(flipped)
        }
        XCTAssertGreaterThan(refused, 100)
        XCTAssertGreaterThan(read, 100)
        // Through the file, a corrupt one is named.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("corrupt-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = FileManager.default.createFile(atPath: folder + "/gschemas.compiled", contents: Data(bytes.prefix(100)))
        XCTAssertThrowsError(
            try SchemaSource(environment: Fixture.environment(["GSETTINGS_SCHEMA_DIR": folder])).schema(
                "org.example.desktop")
        ) { error in
            guard case .corruptFile(let path, _)? = error as? DesktopError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, folder + "/gschemas.compiled")
        }
    }

    /// Each default in the value model and back is itself, typed by the schema or not.
    func testValuesRoundTripThroughTheValueModel() throws {
        for key in try Fixture.schema().keys() {
            let typed = key.defaultValue.plistValue(typed: true)
            XCTAssertEqual(try Variant.from(typed, as: key.type), key.defaultValue, key.name)
            let untyped = key.defaultValue.plistValue(typed: false)
            XCTAssertEqual(try Variant.natural(untyped), key.defaultValue, key.name)
            // Through JSON, the tag included.
            let json = JSONWriter.encode(untyped, pretty: false)
            XCTAssertEqual(try JSONReader.read(json), untyped, String(decoding: json, as: UTF8.self))
        }
        let point = try XCTUnwrap(try Fixture.schema().key("point"))
        XCTAssertEqual(point.defaultValue.plistValue(typed: true), .array([.int(1), .int(2)]))
        XCTAssertEqual(
            point.defaultValue.plistValue(typed: false), .dict(["$gvariant": .string("(1, 2)")]))
        XCTAssertEqual(
            String(
                decoding: JSONWriter.encode(point.defaultValue.plistValue(typed: false), pretty: false), as: UTF8.self),
            #"{"$gvariant":"(1, 2)"}"#)
    }
}
