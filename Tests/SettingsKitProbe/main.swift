// A second Swift program on SettingsKit, for tests that need another process.
//
//   SettingsKitProbe count DIR DOMAIN N     N locked `modify { $0 += 1 }` of the key "count"
//   SettingsKitProbe standard               prints the domain Settings.standard uses
//   SettingsKitProbe get-standard KEY       prints Settings.standard's integer for KEY
//   SettingsKitProbe get-date DIR DOMAIN KEY prints the Date read for KEY, as seconds from 2001
//   SettingsKitProbe coalesced DIR DOMAIN N sets keys k0…k(N-1) coalesced, then exits at once
//   SettingsKitProbe observed-set DIR DOMAIN observes "count", sets it, waits for the watcher
//   SettingsKitProbe gets DIR DOMAIN N      reads "count" N times after a first read, prints the sum
//   SettingsKitProbe theme DIR DOMAIN       reads the enum key "theme" with the default error handler
import FoundationEssentials
import Glibc
import SettingsKit

extension SettingsKeys {
    static let count = SettingsKey<Int>("count", default: 0)
    static let theme = SettingsKey<Theme>("theme", default: .system)
}

enum Theme: String, SettingsValue, CaseIterable { case light, dark, system }

let args = CommandLine.arguments
switch args.dropFirst().first {
case "count" where args.count == 5:
    let settings = Settings(domain: args[3], directory: args[2])
    for _ in 0..<Int(args[4])! { try settings.modify(.count) { $0 += 1 } }
case "standard":
    print(Settings.standard.domain.displayName)
case "get-standard" where args.count == 3:
    print(Settings.standard[SettingsKey<Int>(args[2], default: -1)])
case "get-date" where args.count == 5:
    let date = Settings(domain: args[3], directory: args[2])[SettingsKey<Date?>(args[4])]
    print(date.map { "\($0.timeIntervalSinceReferenceDate)" } ?? "nil")
case "coalesced" where args.count == 5:
    let settings = Settings(domain: args[3], directory: args[2], writes: .coalesced)
    for i in 0..<Int(args[4])! { settings[SettingsKey<Int>("k\(i)", default: -1)] = i }
case "observed-set" where args.count == 4:
    let settings = Settings(domain: args[3], directory: args[2])
    let token = settings.observe(.count) { print("delivered \($0.newValue)") }
    settings[.count] += 1
    usleep(300_000)  // the watcher sees the write meanwhile
    token.cancel()
case "gets" where args.count == 5:
    let settings = Settings(domain: args[3], directory: args[2])
    var sum = settings[.count]
    for _ in 0..<Int(args[4])! { sum += settings[.count] }
    print(sum)
case "theme" where args.count == 4:
    print(Settings(domain: args[3], directory: args[2])[.theme])
default:
    print(
        "usage: SettingsKitProbe count | standard | get-standard | get-date | coalesced | observed-set | gets | theme"
    )
}
