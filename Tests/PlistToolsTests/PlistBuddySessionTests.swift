import XCTest

@testable import PlistModel
@testable import PlistTools

/// PlistBuddy's entries, words and commands, in memory.
final class PlistBuddySessionTests: XCTestCase {
    func session(_ root: PlistValue) -> PlistBuddySession {
        PlistBuddySession(root: root, xml: false) { _ in throw PlistBuddyError.unrecognizedCommand }
    }

    func testEntriesSplitOnColonsWithEscapes() {
        XCTAssertEqual(PlistBuddyEntry(":a:0:b").components, ["a", "0", "b"])
        XCTAssertEqual(PlistBuddyEntry("a:0").components, ["a", "0"])
        XCTAssertEqual(PlistBuddyEntry(":").components, [])
        XCTAssertEqual(PlistBuddyEntry("").components, [])
        XCTAssertEqual(PlistBuddyEntry(":list:").components, ["list", ""])
        XCTAssertEqual(PlistBuddyEntry(#":a\:b:c"#).components, ["a:b", "c"])
    }

    func testWordsKeepQuotedSpacesAndEntryBackslashes() {
        XCTAssertEqual(
            PlistBuddySession.words(#"Add :k string "App version 1.0.1""#),
            ["Add", ":k", "string", "App version 1.0.1"])
        XCTAssertEqual(PlistBuddySession.words("Set :k 'a b'  c"), ["Set", ":k", "a b", "c"])
        XCTAssertEqual(PlistBuddySession.words(#"Add :a\:b string x\ y"#), ["Add", #":a\:b"#, "string", "x y"])
        XCTAssertEqual(PlistBuddySession.words(#"Set :k "say \"hi\"""#), ["Set", ":k", #"say "hi""#])
        XCTAssertEqual(PlistBuddySession.words("  "), [])
    }

    func testAddInsertsAppendsAndRefusesWhatIsThere() {
        var s = session(.dict(["list": .array(["b"])]))
        XCTAssertNil(s.run("Add :list:0 string a").error)
        XCTAssertNil(s.run("Add :list: string c").error)
        XCTAssertEqual(s.root, .dict(["list": .array(["a", "b", "c"])]))
        XCTAssertNil(s.run("Print:list:0").error, "a command joined to its entry, as scripts write it")
        XCTAssertEqual(s.run("Add :list string x").error, #"Add: ":list" Entry Already Exists"#)
        // Dictionaries missing on the way are made, as PlistBuddy makes them.
        XCTAssertNil(s.run("Add :no:deeper string x").error)
        XCTAssertEqual(PlistBuddyEntry(":no:deeper").value(in: s.root), "x")
        XCTAssertEqual(s.run("Add :list:0:x string y").error, #"Add: Entry, ":list:0:x", Does Not Exist"#)
        XCTAssertEqual(s.run("Add :list:7:x string y").error, #"Add: Entry, ":list:7:x", Does Not Exist"#)
        XCTAssertEqual(s.run("Add :list:9 string x").error, #"Add: Entry, ":list:9", Does Not Exist"#)
        XCTAssertTrue(s.changed)
    }

    func testSetKeepsTheTypeAndCopyAndDeleteAndClear() {
        var s = session(.dict(["n": 1, "b": false, "s": "x", "d": .dict(["k": 1])]))
        XCTAssertNil(s.run("Set :n 42").error)
        XCTAssertNil(s.run("Set :b yes").error)
        XCTAssertNil(s.run("Set :s two words").error)
        XCTAssertEqual(s.run("Set :n many").error, "Invalid integer value: many")
        XCTAssertNil(s.run("Copy :d :e").error)
        XCTAssertEqual(s.run("Copy :d :e").error, #"Copy: ":e" Entry Already Exists"#)
        XCTAssertNil(s.run("Delete :d:k").error)
        XCTAssertEqual(s.root, .dict(["n": 42, "b": true, "s": "two words", "d": .dict([:]), "e": .dict(["k": 1])]))
        XCTAssertNil(s.run("Clear array").error)
        XCTAssertEqual(s.root, .array([]))
        XCTAssertEqual(s.run("Frobnicate").error, "Unrecognized Command")
        XCTAssertEqual(s.run("exit").action, .exit)
        XCTAssertEqual(s.run("SAVE").action, .save)
    }

    func testDatesReadAsPrintShowsThem() {
        let date = PlistBuddyText.date("Tue Jan 02 03:04:05 UTC 2024")
        XCTAssertEqual(date, PlistBuddyText.date("2024-01-02T03:04:05Z"))
        XCTAssertEqual(date.map(PlistBuddyText.text), "Tue Jan 02 03:04:05 UTC 2024")
        XCTAssertNil(PlistBuddyText.date("Tue Feb 30 03:04:05 UTC 2024"))
        XCTAssertEqual(PlistBuddyText.text(PlistDate(secondsSince2001: -978_307_200)), "Thu Jan 01 00:00:00 UTC 1970")
    }
}
