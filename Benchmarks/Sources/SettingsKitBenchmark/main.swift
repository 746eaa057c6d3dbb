// SettingsKit against Foundation's UserDefaults, side by side in one process (or, for a
// first read, one fresh process each). XDG_CONFIG_HOME must point at a scratch folder.
//
//   SettingsKitBenchmark warm            median ns of a warm get of a 10-key domain, both
//   SettingsKitBenchmark set             median µs of a set (UserDefaults: set + synchronize)
//   SettingsKitBenchmark burst           median ms of 1,000 sets of different keys into a new
//                                       domain: durable, coalesced + flush(),
//                                       UserDefaults' 1,000 sets + synchronize(), the
//                                       floor: 1,000 bare file replacements of the same sizes,
//                                       and the median ratio of interleaved durable and
//                                       floor rounds
//   SettingsKitBenchmark pressure        ms of 1,000 set-then-get rounds on one key of a
//                                       1.3 MB domain: durable, coalesced (+ flush), and
//                                       UserDefaults (+ one synchronize)
//   SettingsKitBenchmark first D K       ms of the first get of K in D, SettingsKit then
//                                       UserDefaults(suiteName:), in this fresh process
import Foundation
import SettingsKit

func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

func time(_ rounds: Int, _ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<rounds { body() }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(rounds)
}

let args = CommandLine.arguments
switch args.dropFirst().first {
case "warm":
    let settings = Settings(domain: "com.bench.ten")
    let defaults = UserDefaults(suiteName: "com.bench.ten")!
    let key = SettingsKey<Int>("key5", default: 0)
    for i in 0..<10 { settings[SettingsKey<Int>("key\(i)", default: 0)] = i }
    var sink = 0
    _ = settings[key]
    _ = defaults.integer(forKey: "key5")
    let kit = median((0..<15).map { _ in time(20_000) { sink &+= settings[key] } })
    let ud = median((0..<15).map { _ in time(20_000) { sink &+= defaults.integer(forKey: "key5") } })
    print("warm-get \(kit) \(ud) \(sink == 42 ? "" : "")")
case "set":
    let settings = Settings(domain: "com.bench.set")
    let defaults = UserDefaults(suiteName: "com.bench.set.ud")!
    let key = SettingsKey<Int>("n", default: 0)
    var i = 0
    let kit =
        median(
            (0..<30).map { _ in
                i += 1; return time(1) { settings[key] = i }
            }) / 1000
    let ud =
        median(
            (0..<30).map { _ in
                i += 1;
                return time(1) {
                    defaults.set(i, forKey: "n"); defaults.synchronize()
                }
            }) / 1000
    print("set \(kit) \(ud)")
case "burst":
    let keys = (0..<1000).map { SettingsKey<Int>("key\($0)", default: 0) }
    var round = 0
    func fresh(_ name: String) -> String {
        // A new domain each round, and each process: a set of a value already there
        // writes nothing, so a domain left by an earlier run would time no writes.
        round += 1
        return "com.bench.burst.\(name).\(getpid()).\(round)"
    }
    func durableRound() -> Double {
        let settings = Settings(domain: fresh("durable"))
        return time(1) { for (i, key) in keys.enumerated() { settings[key] = i } }
    }
    // The first durable round, untimed, gives the floor its file sizes.
    _ = durableRound()
    let coalesced =
        median(
            (0..<5).map { _ in
                let settings = Settings(domain: fresh("coalesced"), writes: .coalesced)
                return time(1) {
                    for (i, key) in keys.enumerated() { settings[key] = i }
                    try! settings.flush()
                }
            }) / 1e6
    let ud =
        median(
            (0..<5).map { _ in
                let defaults = UserDefaults(suiteName: fresh("ud"))!
                return time(1) {
                    for i in 0..<1000 { defaults.set(i, forKey: "key\(i)") }
                    defaults.synchronize()
                }
            }) / 1e6
    // The floor of a durable set: what replacing the file costs with no settings work,
    // the same growing sizes written to a temporary file, fsynced, renamed over the
    // domain and the folder fsynced, 1,000 times.
    let folder = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]!
    let size =
        (try? FileManager.default.attributesOfItem(
            atPath: "\(folder)/com.bench.burst.durable.\(getpid()).1.plist")[.size] as? Int) ?? 0
    func floorRound() -> Double {
        let target = "\(folder)/floor.\(getpid()).plist", temporary = "\(folder)/.floor.tmp"
        let directory = open(folder, O_RDONLY | O_DIRECTORY)
        defer { close(directory); unlink(target) }
        let bytes = [UInt8](repeating: 0x20, count: size)
        return time(1) {
            for i in 1...1000 {
                let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, size * i / 1000) }
                fsync(fd)
                close(fd)
                rename(temporary, target)
                fsync(directory)
            }
        }
    }
    // Durable rounds and floor rounds interleaved, the order swapped each round, so a disk
    // that slows for a while slows both: the ratio is the median of each round's own.
    var durables: [Double] = [], floors: [Double] = []
    for round in 0..<7 {
        if round % 2 == 0 {
            durables.append(durableRound())
            floors.append(floorRound())
        } else {
            floors.append(floorRound())
            durables.append(durableRound())
        }
    }
    let durable = median(durables) / 1e6, floor = median(floors) / 1e6
    let ratio = median(zip(durables, floors).map { $0 / $1 })
    print("burst \(durable) \(coalesced) \(ud) \(floor) \(ratio)")
case "pressure":
    // 8,000 keys of 120-byte strings: about 1.3 MB of XML, as the peers' memory-pressure test.
    let filler = String(repeating: "x", count: 120)
    var big = PlistDictionary()
    for i in 0..<8000 { big["key\(i)"] = .string(filler) }
    let key = SettingsKey<Int>("counter", default: 0)
    func run(_ writes: SettingsWrites, _ name: String) -> Double {
        let settings = Settings(domain: name, writes: writes)
        try! settings.batch { batch in
            for entry in big.entries { batch[SettingsKey<String>(entry.key, default: "")] = filler }
        }
        var sink = 0
        let elapsed = time(1) {
            for i in 0..<1000 {
                settings[key] = i
                sink &+= settings[key]
            }
            try! settings.flush()
        }
        return elapsed / 1e6 + Double(sink == -1 ? 1 : 0)
    }
    let durable = run(.durable, "com.bench.pressure.durable")
    let coalesced = run(.coalesced, "com.bench.pressure.coalesced")
    let defaults = UserDefaults(suiteName: "com.bench.pressure.ud")!
    for i in 0..<8000 { defaults.set(filler, forKey: "key\(i)") }
    defaults.synchronize()
    var total = 0
    let ud =
        time(1) {
            for i in 0..<1000 {
                defaults.set(i, forKey: "counter")
                total &+= defaults.integer(forKey: "counter")
            }
            defaults.synchronize()
        } / 1e6
    print("pressure \(durable) \(coalesced) \(ud)")
case "first" where args.count == 4:
    var ours = 0, theirs = 0
    let kit = time(1) { ours = Settings(domain: args[2])[SettingsKey<Int>(args[3], default: -1)] } / 1e6
    let ud = time(1) { theirs = UserDefaults(suiteName: args[2])!.integer(forKey: args[3]) } / 1e6
    print("first-get \(kit) \(ud) \(ours == theirs ? "same" : "DIFFERENT")")
default:
    print("usage: SettingsKitBenchmark warm | set | burst | pressure | first D K")
}
