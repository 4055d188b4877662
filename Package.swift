// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "auditor",
    products: [
        .executable(name: "auditor", targets: ["AuditorMain"]),
        // The command line as a library: an executable of a team's own that carries its Swift
        // validators calls `AuditorTool.main(validators:)` (examples/validators: team-auditor).
        .library(name: "AuditorCLI", targets: ["AuditorCLI"]),
        .library(name: "Auditor", targets: ["Auditor"]),
        .library(name: "AuditorReaders", targets: ["AuditorReaders"]),
        .library(name: "AuditorReports", targets: ["AuditorReports"]),
        .library(name: "AuditorHistory", targets: ["AuditorHistory"]),
    ],
    // `Spark` (off by default): the Spark Connect client (gRPC, protobuf, Arrow). `swift build
    // --traits Spark` builds it; the default build never compiles the gRPC stack (swift-nio,
    // swift-nio-ssl, swift-certificates...), which took 15 minutes here on 2 busy cores.
    traits: [
        .trait(name: "Spark", description: "The Spark Connect client (target SparkConnect) and its tests."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // Only with the Spark trait.
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.1"),
        // No traits: its BinaryDelimitedStreams (Foundation) are not needed, as in grpc-swift's own manifests.
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0", traits: []),
    ],
    targets: [
        // Core: values, chunks, rules, plan, engine, findings. Depends on nothing of ours.
        .target(name: "Auditor", dependencies: [.product(name: "Yams", package: "Yams"), "CLibCrypto"]),
        // SparkConnect only with the Spark trait: `spark:` sources (Sources/Readers/Spark, all `#if Spark`).
        .target(name: "AuditorReaders", dependencies: ["Auditor", "SQLiteSupport", "CSQLite", "CXMLShim", "CLibPQ",
                                                   "CZlib", "CZstdShim",
                                                   .target(name: "SparkConnect", condition: .when(traits: ["Spark"]))],
                path: "Sources/Readers"),
        .target(name: "AuditorReports", dependencies: ["Auditor"], path: "Sources/Reports"),
        // The run history (`--history`, `auditor history`): the core's `RunHistory` in an SQLite file.
        .target(name: "AuditorHistory", dependencies: ["Auditor", "SQLiteSupport", "CSQLite"], path: "Sources/History"),
        // Internal: the libsqlite3 connection, statement and error plumbing of Readers and AuditorHistory.
        .target(name: "SQLiteSupport", dependencies: ["CSQLite"]),
        .target(
            name: "AuditorCLI",
            dependencies: ["Auditor", "AuditorReaders", "AuditorReports", "AuditorHistory",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "AuditorMain", dependencies: ["AuditorCLI"]),

        // System libraries. libxml2 is only ever included by CXMLShim's .c file (STYLE.md):
        // a Swift module that sees libxml2's ICU-enabled headers and Foundation fails a clean build.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        .target(name: "CXMLShim", dependencies: ["CLibXML2"]),
        // Decompression: gzip (zlib) streams and Parquet GZIP pages. zstd: libzstd.so.1 loaded at run
        // time by CZstdShim (a fresh machine has Debian's libzstd1, not libzstd-dev); Parquet's
        // SNAPPY pages are decoded in Swift (Readers/Parquet/Snappy.swift).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CZstdShim"),
        // PostgreSQL sources: libpq, the reference client (every authentication method, TLS, COPY).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // The Spark Connect client. Its sources are wrapped in `#if Spark`: without the trait
        // the target compiles to an empty module and none of its dependencies is built.
        .target(
            name: "SparkConnect",
            dependencies: [
                .product(name: "GRPCCore", package: "grpc-swift-2", condition: .when(traits: ["Spark"])),
                .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport",
                         condition: .when(traits: ["Spark"])),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf", condition: .when(traits: ["Spark"])),
                .product(name: "SwiftProtobuf", package: "swift-protobuf", condition: .when(traits: ["Spark"])),
            ],
            exclude: ["Protos"]),

        // Running programs from the tests without Foundation's Process, scratch directories and SQLite fixtures (Tests/TestSupport).
        .target(name: "TestSupport", dependencies: ["CSQLite"], path: "Tests/TestSupport"),
        .testTarget(name: "AuditorTests", dependencies: ["Auditor", "TestSupport"]),
        .testTarget(name: "ReadersTests", dependencies: ["AuditorReaders", "Auditor", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SessionTests", dependencies: ["Auditor", "AuditorReaders", "AuditorReports", "AuditorHistory", "TestSupport"]),
        .testTarget(name: "HistoryTests", dependencies: ["AuditorHistory", "Auditor", "CSQLite", "TestSupport"]),
        .testTarget(name: "ReportsTests", dependencies: ["AuditorReports", "Auditor", "TestSupport"],
                    resources: [.copy("Golden")]),
        .testTarget(name: "EndToEndTests", dependencies: ["AuditorMain", "TestSupport"]),
        // Runs against a real local Spark Connect server (scripts/spark-connect.sh); empty
        // without the Spark trait, like its target.
        // AuditorMain: the `spark:` source's end-to-end tests run the built binary.
        .testTarget(name: "SparkConnectTests",
                    dependencies: ["SparkConnect", "AuditorReaders", "Auditor", "AuditorMain", "TestSupport"], exclude: ["Fixtures"]),
    ]
)

// One settings loop for every Swift target (apple/swift-log's pattern).
for target in package.targets where target.type != .system && !["CXMLShim", "CZstdShim"].contains(target.name) {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    target.swiftSettings = settings
}
