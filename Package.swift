// swift-tools-version:6.0
import PackageDescription

/// The engine's three layers, which everything above them depends on directly.
let core: [Target.Dependency] = ["PlistModel", "PlistCodecs", "SettingsStore"]

let package = Package(
    name: "settings",
    products: [
        .executable(name: "settings", targets: ["settings"]),
        // The engine's three layers, imported by name (`import SettingsStore`). No umbrella
        // module re-exports them: across a re-export, an incremental build misses a change of
        // a type's layout and links stale code (swiftlang/swift#89636).
        .library(name: "SettingsCore", targets: ["PlistModel", "PlistCodecs", "SettingsStore"]),
        .library(name: "SettingsKit", targets: ["SettingsKit"]),
    ],
    targets: [
        // The engine, in three layers that import one way, so an upward use does not
        // compile: the value model and its type table; the codecs; the OS door, schemas and
        // the domain store. None imports Foundation, only the stdlib and Glibc. `Extern`
        // declares the few libc calls Glibc's module leaves out (<sys/xattr.h>) in the
        // System door.
        .target(name: "PlistModel"),
        .target(name: "PlistCodecs", dependencies: ["PlistModel"]),
        .target(
            name: "SettingsStore", dependencies: ["PlistModel", "PlistCodecs"],
            swiftSettings: [.enableExperimentalFeature("Extern")]),
        // Typed, observable settings for Swift programs, on the same files. It may use
        // FoundationEssentials (Date, Data, URL, UUID, Codable); the executable does not link it.
        .target(name: "SettingsKit", dependencies: core),
        // Settings that follow the user across machines on git (`settings sync`): a round
        // merges base, live and repository per key through the store; git is the user's
        // own, run through its plumbing, never a work tree. Foundation-free like the core.
        .target(name: "SettingsSync", dependencies: core),
        // Settings as code, beside the store: the differences of two states (`diff`,
        // `capture`), the commands that replay them, desired states (`apply`) with what
        // they replaced, and undo over the store's journal. Foundation-free like the core.
        .target(name: "SettingsCode", dependencies: core),
        // Apple's other plist tools (`plutil`, `PlistBuddy`): their key paths, edits and
        // printed forms on the value model; every write goes through the store.
        .target(name: "PlistTools", dependencies: core),
        // The Linux desktop's own settings (GSettings schemas, dconf) as domains: GLib's
        // GVDB files and GVariant values read here, writes sent to dconf's service on D-Bus.
        .target(name: "DesktopSettings", dependencies: core),
        // The command line: argv -> verb -> store, and nothing else.
        .executableTarget(
            name: "settings", dependencies: core + ["SettingsSync", "SettingsCode", "PlistTools", "DesktopSettings"],
            exclude: ["HotSymbols.txt"],
            // A fully static release binary: with no dynamic loader resolving symbols at
            // start-up (76% of a one-key `read` before), it starts faster than git config.
            // STATIC_EXECUTABLE keeps glibc's dlopen out of it (StaticLinking.swift).
            // `Extern`: the libc calls of its process policy that Glibc's module leaves out.
            // Linked by lld with the functions a read, a write and an export run laid out
            // together (`HotSymbols.txt`, from callgrind): the kernel maps 64 KB of code around
            // each first touch, so scattered hot code made most of the 9.7 MB text resident
            // (5.9 MB; 4.1 MB ordered), a third of a big export's peak.
            swiftSettings: [
                .define("STATIC_EXECUTABLE", .when(configuration: .release)), .enableExperimentalFeature("Extern"),
            ],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-executable", "-use-ld=lld", "-Xlinker",
                        "--symbol-ordering-file=\(Context.packageDirectory)/Sources/settings/HotSymbols.txt",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ], .when(configuration: .release))
            ]
        ),
        // A separate process that uses Foundation's UserDefaults, so the tests can show
        // that Swift programs and `settings` see the same files.
        .executableTarget(name: "InteropProbe", path: "Tests/InteropProbe"),
        // Another process using SettingsKit, for the cross-process tests.
        .executableTarget(name: "SettingsKitProbe", dependencies: ["SettingsKit"], path: "Tests/SettingsKitProbe"),
        // What both test targets share: the canonical form values are compared in.
        .target(
            name: "TestSupport", dependencies: core, path: "Tests/TestSupport",
            swiftSettings: [.enableExperimentalFeature("Extern")]),
        .testTarget(
            name: "SettingsCoreTests", dependencies: core + ["TestSupport"],
            resources: [.copy("Fixtures")]),
        // Golden/ is read by path (GoldenTests), not bundled.
        .testTarget(
            name: "settingsTests",
            dependencies: core + [
                "settings", "SettingsSync", "SettingsCode", "DesktopSettings", "InteropProbe", "TestSupport",
            ],
            exclude: ["Golden"]
        ),
        .testTarget(name: "SettingsCodeTests", dependencies: core + ["SettingsCode", "TestSupport"]),
        .testTarget(name: "PlistToolsTests", dependencies: core + ["PlistTools", "TestSupport"]),
        // Fixtures/ (schemas GLib compiled, what gsettings and dconf printed) is read by path.
        .testTarget(
            name: "DesktopSettingsTests", dependencies: core + ["DesktopSettings", "TestSupport"], exclude: ["Fixtures"]
        ),
        // Sync's merge and rounds in process, with the user's git and repositories on disk.
        .testTarget(name: "SettingsSyncTests", dependencies: core + ["SettingsSync", "TestSupport"]),
        .testTarget(
            name: "SettingsKitTests",
            dependencies: core + ["SettingsKit", "settings", "InteropProbe", "SettingsKitProbe", "TestSupport"]),
    ]
)
