// swift-tools-version:6.0
import PackageDescription

// The benchmark programs, apart from the product's manifest: they depend on SettingsKit by
// path, as an outside user of the package would. Benchmarks/run.sh builds and runs them.
let package = Package(
    name: "settings-benchmarks",
    dependencies: [.package(name: "settings", path: "..")],
    targets: [
        // SettingsKit against Foundation's UserDefaults.
        .executableTarget(
            name: "SettingsKitBenchmark",
            dependencies: [.product(name: "SettingsKit", package: "settings")]
        )
    ]
)
