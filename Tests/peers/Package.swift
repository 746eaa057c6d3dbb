// swift-tools-version:6.0
import PackageDescription

// The peers' test suites (sindresorhus/Defaults' Tests/DefaultsTests and SwiftyUserDefaults'
// Tests/SwiftyUserDefaultsTests), each test re-expressed on SettingsKit, in a package of its
// own that depends on this one by path, as an app would. Tests/peers/run.sh runs it; the
// README beside this file maps every peer test to ours or says why it does not apply.
let package = Package(
    name: "settings-peer-suites",
    dependencies: [.package(name: "settings", path: "../..")],
    targets: [
        .testTarget(
            name: "PeerSuites",
            dependencies: [.product(name: "SettingsKit", package: "settings")]
        )
    ]
)
