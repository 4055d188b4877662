// swift-tools-version:6.0
// libFuzzer targets for auditor's parsers (issue 13 §7). A separate package, so the main
// package's `swift build` and `swift test` never compile them; see README.md and run.sh.
import PackageDescription

let core = Target.Dependency.product(name: "Auditor", package: "auditor")
let readers = Target.Dependency.product(name: "AuditorReaders", package: "auditor")

let package = Package(
    name: "auditor-fuzz",
    dependencies: [
        // Named, so that the products below resolve whatever the clone's folder is called.
        .package(name: "auditor", path: ".."),
    ],
    targets: [
        .executableTarget(name: "FuzzCSV", dependencies: [core, readers]),
        .executableTarget(name: "FuzzXML", dependencies: [core, readers]),
        .executableTarget(name: "FuzzRules", dependencies: [core]),
        .executableTarget(name: "FuzzExpression", dependencies: [core]),
        .executableTarget(name: "FuzzPattern", dependencies: [core]),
    ]
)

for target in package.targets {
    target.swiftSettings = [.swiftLanguageMode(.v6)]
}
