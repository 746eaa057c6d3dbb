import XCTest
import TestSupport
@testable import PlistModel
@testable import PlistCodecs
@testable import SettingsStore

/// Without $HOME the store falls back to the home folder /etc/passwd gives, read directly
/// so the static binary needs no glibc shared libraries at run time (no getpwuid).
final class HomeDirectoryTests: XCTestCase {
    func testPasswdLinesAreMatchedOnTheUserIDField() {
        let passwd = Array(
            """
            # comment:x:0:0::/nowhere:
            root:x:0:0:root:/root:/bin/bash
            alice:x:1000:1000:Alice,,,:/home/alice:/bin/sh
            bob:x:10000:10000::/home/bob:/bin/sh
            nohome:x:1001:1001:::/bin/sh
            short:x:1002
            """.utf8)
        XCTAssertEqual(FileSystem.passwdHome(of: 0, in: passwd), "/root")
        XCTAssertEqual(FileSystem.passwdHome(of: 1000, in: passwd), "/home/alice")
        XCTAssertEqual(FileSystem.passwdHome(of: 10000, in: passwd), "/home/bob")
        XCTAssertNil(FileSystem.passwdHome(of: 100, in: passwd), "a prefix of an id is not the id")
        XCTAssertNil(FileSystem.passwdHome(of: 1001, in: passwd), "an empty home field")
        XCTAssertNil(FileSystem.passwdHome(of: 1002, in: passwd), "a line with too few fields")
        XCTAssertNil(FileSystem.passwdHome(of: 0, in: []))
    }

    func testThisUsersEntryIsTheOneGetpwuidGives() throws {
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else {
            throw skip("no passwd entry for this user")
        }
        let passwd = try XCTUnwrap(try FileSystem.readFile("/etc/passwd")?.bytes)
        XCTAssertEqual(FileSystem.passwdHome(of: getuid(), in: passwd), String(cString: dir))
    }
}
