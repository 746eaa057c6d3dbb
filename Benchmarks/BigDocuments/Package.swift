// swift-tools-version:6.0
import PackageDescription

// The big-document and timing tests, out of the README's test command (`swift test` at the
// root): they run the release binary (SETTINGS_BIN_DIR, else ../../.build/release) on
// domains of 10,000 to 100,000 keys and hold what they measure to the limits stored in
// Benchmarks/Thresholds. A package of their own, depending on nothing, so CI builds only
// them (in release) beside the release binary it has built already:
//   swift test -c release --package-path Benchmarks/BigDocuments --disable-swift-testing
let package = Package(
    name: "settings-big-documents",
    targets: [.testTarget(name: "BigDocumentTests", path: "Tests/BigDocumentTests")]
)
