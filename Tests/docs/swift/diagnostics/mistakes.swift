// The mistakes a newcomer makes with SettingsKit, and what the compiler says about each.
import SettingsKit

extension SettingsKeys {
    static let music = SettingsKey<Bool>("music", default: true)
    static let musicVolume = SettingsKey<Float>("musicVolume", default: 50, clampedTo: 0...100)
}

let settings = Settings(domain: "com.example.mistakes")
settings[.music] = 5  // expect: error: the value's type is not the key's
let volume: Int = settings[.musicVolume]  // expect: error: the value's type is not the key's
try settings.set("loud", for: .musicVolume)  // expect: error: the value's type is not the key's
try settings.batch { $0[.music] = 1 }  // expect: error: the value's type is not the key's
settings.observe(.music) { print($0.newValue) }  // expect: warning: is unused
settings.observe(.music, isolation: MainActor.shared) { _ in }  // expect: warning: is unused
