// swift-tools-version:6.0
import PackageDescription

// Two runnable examples of Swift validators:
// - ValidatorsExample, the Auditor library's validator API on values and records:
//     swift run --package-path examples/validators ValidatorsExample
// - team-auditor, the `auditor` command line carrying a team's validators (TeamValidators),
//   which a rules file names in `validators:` (people.yml here):
//     swift run --package-path examples/validators team-auditor run examples/validators/people.yml
let package = Package(
    name: "validators-example",
    products: [
        .executable(name: "team-auditor", targets: ["TeamAuditor"]),
    ],
    dependencies: [
        .package(name: "auditor", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "ValidatorsExample",
            dependencies: [.product(name: "Auditor", package: "auditor")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // The team's validators: a library of their own, testable without the command line.
        .target(
            name: "TeamValidators",
            dependencies: [.product(name: "Auditor", package: "auditor")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "TeamAuditor",
            dependencies: ["TeamValidators", .product(name: "AuditorCLI", package: "auditor")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
