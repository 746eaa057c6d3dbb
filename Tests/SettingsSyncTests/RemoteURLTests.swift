import SettingsStore
import XCTest

@testable import SettingsSync

/// Issue 48 §9: what of a remote's URL a sync shows. A token may be the URL's whole user
/// part, its user, its password or a query value, and nothing tells it from a name, so
/// the whole user part and every query value are hidden; what cannot hold one is shown.
final class RemoteURLTests: XCTestCase {
    func testEveryPlaceATokenCanBeIsHidden() {
        let rows: [(String, String, UInt)] = [
            ("https://ghp_TOKEN@github.com/me/s.git", "https://***@github.com/me/s.git", #line),
            ("https://me:pw@example.com/r.git", "https://***@example.com/r.git", #line),
            ("https://TOKEN:x-oauth-basic@github.com/r", "https://***@github.com/r", #line),
            ("HTTPS://a@b@host:8443/r", "HTTPS://***@host:8443/r", #line),
            ("https://host/r.git?access_token=T1&ref=x", "https://host/r.git?access_token=***&ref=***", #line),
            ("https://host/r.git?T1", "https://host/r.git?***", #line),
            ("https://u:p@host/r?token=T;a=b#top", "https://***@host/r?token=***;a=***#top", #line),
            ("https://host/r.git?", "https://host/r.git?", #line),
            ("ssh://git@host:22/r.git", "ssh://***@host:22/r.git", #line),
            // The path's `@` is no user part.
            ("https://host/team/@me/r.git", "https://host/team/@me/r.git", #line),
            // No credentials: shown as they are.
            ("https://example.com/r.git", "https://example.com/r.git", #line),
            ("git@github.com:me/settings.git", "git@github.com:me/settings.git", #line),
            ("/home/me/a@b/settings.git?x=1", "/home/me/a@b/settings.git?x=1", #line),
            ("file:///home/me/a@b/s.git?x=1", "file:///home/me/a@b/s.git?x=1", #line),
            ("/tmp/x://y@z", "/tmp/x://y@z", #line),
        ]
        for (url, shown, line) in rows { XCTAssertEqual(RemoteURL.redacted(url), shown, line: line) }
    }

    func testGitsMessagesAreScrubbedWhereverAURLIs() {
        XCTAssertEqual(
            RemoteURL.scrubbed("unable to access 'https://TOKEN@host/r.git/?access_token=T2': Could not resolve host"),
            "unable to access 'https://***@host/r.git/?access_token=***': Could not resolve host")
        XCTAssertEqual(
            RemoteURL.scrubbed("repository \"http://u:p@h/r\" and `https://h/r?t=T3` and x-https://a@b/c"),
            "repository \"http://***@h/r\" and `https://h/r?t=***` and x-https://***@b/c")
        XCTAssertEqual(RemoteURL.scrubbed("no url: a://"), "no url: a://")
        XCTAssertEqual(RemoteURL.scrubbed("'/srv/r.git' does not appear"), "'/srv/r.git' does not appear")
        XCTAssertEqual(Git.reason(Array("fatal: 'https://tok@h/r' failed\n".utf8)), "'https://***@h/r' failed")
    }

    /// A relative path is made absolute (rounds run from any folder); a remote no URL could
    /// be is refused before anything is made.
    func testTheRemoteGitIsToldIsAbsoluteAndHasNoControlCharacter() throws {
        let here = FileSystem.currentDirectory()
        XCTAssertEqual(try SyncSetup.usable("../r.git"), here + "/../r.git")
        XCTAssertEqual(try SyncSetup.usable("./a:b"), here + "/./a:b")
        for url in ["/srv/r.git", "host:r.git", "https://h/r", "file:///srv/r"] {
            XCTAssertEqual(try SyncSetup.usable(url), url)
        }
        for url in ["", "https://h/r\n", "https://t@h/r\u{85}", "/srv/\u{1B}[2J"] {
            XCTAssertThrowsError(try SyncSetup.usable(url), url) { error in
                guard case SyncError.unusableRemote = error else { return XCTFail("\(error)") }
                XCTAssertEqual((error as? SyncError)?.status, 2)
                XCTAssertFalse((error as? SyncError)?.message.contains("t@") ?? true)
            }
        }
    }
}
