import Foundation
import Synchronization
import XCTest

@testable import SettingsKit
import PlistModel

/// Found by Defaults' concurrent-observation test, which lost a change in more than half
/// its runs: an observer of a key read the value when it was told of a write, so a write
/// told after another thread's had landed was heard with that one's value, and the other
/// write then as no change at all. Each write is now heard with the value it wrote.
final class ConcurrentDeliveryTests: XCTestCase {
    var scratch: Scratch!
    override func setUp() { scratch = Scratch() }
    override func tearDown() { scratch.remove() }

    /// What an observer hears when 6 is written, then a change that lost the race to it is
    /// told late: `late`, the user's value it wrote (nil: removed).
    private func heard(default value: Int, late: PlistValue?) -> [Int] {
        let settings = Settings(domain: "com.example.race", directory: scratch.directory)
        let key = SettingsKey<Int>("n", default: value)
        let heard = Mutex<[Int]>([])
        let token = settings.observe(key) { change in heard.withLock { $0.append(change.newValue) } }
        settings[key] = 6
        settings.delivered([ExactKey("n"): late])
        token.cancel()
        return heard.withLock { $0 }
    }

    /// The race made certain: the write of 5 is heard as 5, not as 6 again (and so not at all).
    func testAWriteToldLateIsHeardWithItsOwnValue() {
        XCTAssertEqual(heard(default: 0, late: .int(5)), [6, 5])
    }

    /// And a removal told late is heard as the default.
    func testARemovalToldLateIsHeardAsTheDefault() {
        XCTAssertEqual(heard(default: 42, late: nil), [6, 42])
    }

    /// The peer's own test: 100 writers at once, each write heard once.
    func testEveryOneOfAHundredConcurrentWritesIsHeard() async {
        for _ in 0..<5 {
            let settings = Settings(domain: "com.example.race\(UUID().uuidString)", directory: scratch.directory)
            let key = SettingsKey<Int>("n", default: 0)
            let count = Mutex(0)
            let token = settings.observe(key, initial: true) { _ in count.withLock { $0 += 1 } }
            await withTaskGroup(of: Void.self) { group in
                for index in 1...100 { group.addTask { settings[key] = index } }
            }
            token.cancel()
            XCTAssertEqual(count.withLock { $0 }, 101)
        }
    }
}
