// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Muster",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "EventLog", targets: ["EventLog"]),
        .executable(name: "muster", targets: ["muster"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // System libraries: LMDB and zstd through their C APIs.
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]
        ),
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]
        ),

        // CRC-32C with the CPU's instruction where there is one.
        .target(name: "CChecksum"),

        // The generic, append-only event store. Knows nothing of notifications.
        .target(
            name: "EventLog",
            dependencies: [
                "CLMDB", "CZstd", "CChecksum",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // Upcasters and store-format migrations, applied on read and by `muster migrate`.
        .target(
            name: "Migrations",
            dependencies: ["EventLog"],
            path: "Migrations"
        ),

        // The domain: users, groups and push targets (notifications, responses, areas follow).
        .target(
            name: "Muster",
            dependencies: [
                "EventLog", "Forms",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),

        // Temp data directories, fixed clocks and fixtures for tests and benchmarks.
        .target(
            name: "EventLogTesting",
            dependencies: ["EventLog"]
        ),

        // The form payload, field and response-object model of seed 000; pure, no I/O.
        .target(name: "Forms"),

        // The operator's command line.
        .executableTarget(
            name: "muster",
            dependencies: [
                "EventLog", "Migrations", "Muster",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Benchmarks: release build, ratios against raw LMDB and real peers in the same run.
        .executableTarget(
            name: "bench",
            dependencies: [
                "EventLog", "Migrations", "EventLogTesting", "CLMDB", "CZstd", "Muster",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/bench"
        ),

        // Appends from many tasks and prints each acknowledged position; killed mid-load by the durability test.
        .executableTarget(
            name: "muster-loadgen",
            dependencies: ["EventLog"],
            path: "Tools/loadgen"
        ),

        .testTarget(
            name: "EventLogTests",
            dependencies: [
                "EventLog", "Migrations", "EventLogTesting", "CLMDB",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "MusterTests",
            dependencies: ["Muster", "EventLog", "EventLogTesting", "Forms"]
        ),
        .testTarget(
            name: "FormsTests",
            dependencies: ["Forms", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["EventLog", "EventLogTesting", "Muster", "Forms"]
        ),
    ]
)
