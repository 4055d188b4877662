// swift-tools-version:6.0
import PackageDescription

// A runnable example of the Auditor library's validator API:
//   swift run --package-path examples/validators
let package = Package(
    name: "validators-example",
    dependencies: [
        .package(name: "auditor", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "ValidatorsExample",
            dependencies: [.product(name: "Auditor", package: "auditor")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
