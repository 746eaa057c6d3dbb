import XCTest

@testable import DesktopSettings

/// GVariant's serialised form as written for dconf's service (`VariantBytes.serialised`),
/// held to GLib's own: every value glib-compile-schemas wrote into the fixture is written
/// again byte for byte, and every value of the printing fixture reads back as it was.
final class VariantBytesTests: XCTestCase {
    func testWritesEveryValueGLibWroteByteForByte() throws {
        let file = try XCTUnwrap(try GVDB.file(Fixture.folder + "/gschemas.compiled"))
        var checked = 0
        func walk(_ table: GVDB.Table, depth: Int) throws {
            for item in table.allItems {
                switch item.type {
                case UInt8(ascii: "H"): if depth < 4 { try walk(try item.subtable(), depth: depth + 1) }
                case UInt8(ascii: "v"):
                    let bytes = try item.valueBytes()
                    let value = try VariantBytes.boxed(bytes)
                    XCTAssertEqual(VariantBytes.serialised(.boxed(value)), Array(bytes), "\(value.gvariantText)")
                    checked += 1
                default: continue
                }
            }
        }
        try walk(file, depth: 0)
        XCTAssertGreaterThan(checked, 20)
    }

    func testEveryPrintedValueRoundTrips() throws {
        var checked = 0
        for (text, _) in try Fixture.pairs("printing.tsv") {
            guard let value = try? VariantParser.parse(text, as: nil) else { continue }
            XCTAssertEqual(try VariantBytes.value(VariantBytes.serialised(value)[...], as: value.type), value, text)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 30)
        // dconf's changeset: sets and resets, a folder's reset among them.
        let change = DesktopStore.changeset([
            ("/a/b", .string("x")), ("/a/", nil), ("/a/c", .tuple([.unsigned(7, UInt8(ascii: "u")), .string("")])),
        ])
        XCTAssertEqual(try VariantBytes.value(VariantBytes.serialised(change)[...], as: change.type), change)
    }
}

/// The session bus's address as GLib and libdbus read `DBUS_SESSION_BUS_ADDRESS`.
final class BusAddressTests: XCTestCase {
    func testTheFirstUnixAddressIsTaken() {
        func place(_ text: String) -> String? {
            DBusSession.places(text).first.map { ($0.abstract ? "@" : "") + String(decoding: $0.path, as: UTF8.self) }
        }
        XCTAssertEqual(place("unix:path=/run/user/1000/bus"), "/run/user/1000/bus")
        XCTAssertEqual(place("unix:abstract=/tmp/dbus-AbC,guid=0123"), "@/tmp/dbus-AbC")
        XCTAssertEqual(place("tcp:host=localhost,port=1;unix:guid=1,path=/x%2dy"), "/x-y")
        XCTAssertNil(place("unix:path=/x%zz"))
        XCTAssertNil(place("garbage:::"))
        XCTAssertNil(place(""))
        // Every one, in order: the next is tried when one cannot be reached.
        XCTAssertEqual(DBusSession.places("unix:path=/a;unix:abstract=b;unix:tmpdir=/tmp").count, 2)
    }
}
