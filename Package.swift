// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Muster",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "MusterClient", targets: ["MusterClient"]),
        .library(name: "MusterWire", targets: ["MusterWire"]),
        .executable(name: "muster", targets: ["muster"]),
    ],
    dependencies: [
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // System libraries: LMDB, zstd, libmosquitto (the MQTT client) and libnats (the NATS client) through their C
        // APIs.
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
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"]), .brew(["mosquitto"])]
        ),
        .systemLibrary(
            name: "CNATS",
            pkgConfig: "libnats",
            providers: [.apt(["libnats-dev"])]
        ),

        // CRC-32C with the CPU's instruction where there is one.
        .target(name: "CChecksum"),

        // The generic, append-only event store. Knows nothing of notifications.
        .target(
            name: "EventLog",
            dependencies: [
                "CLMDB", "CZstd", "CChecksum",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
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
                "EventLog", "Forms", "Geo", "MQTTConnect", "MusterWire",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),

        // Temp data directories, fixed clocks and fixtures for tests and benchmarks.
        .target(
            name: "EventLogTesting",
            dependencies: ["EventLog"]
        ),

        // The JSON shapes of the API (JSONValue, response object, user, message, location answer, event, error
        // body…): one model of the wire for the server, the CLI and the client SDK. Foundation only.
        .target(name: "MusterWire"),

        // The rules of seed 000's form payloads, fields and response objects; pure, no I/O.
        .target(name: "Forms", dependencies: ["MusterWire"]),

        // The MQTT Connect app's messages of seed 001 (DialogMessage, settings, replies, sensor values) and their
        // translation to and from Muster's forms; pure, no I/O and no MQTT library.
        .target(name: "MQTTConnect", dependencies: ["Forms", "MusterWire"]),

        // Geometry, spatial index, opening hours and iBeacon of seed 004; pure, no I/O.
        .target(name: "Geo"),

        // The web app (seed 000's app for people, and the operator's console): plain JavaScript modules and CSS in
        // `app/`, compiled into the binary by `assets.c` (C23 #embed; `Tools/web-assets` writes it), served by MusterHTTP at `/`.
        .target(name: "WebApp", exclude: ["app"]),

        // The HTTP edge (Hummingbird): routes, authentication, live streams, metrics. Only translates.
        .target(
            name: "MusterHTTP",
            dependencies: [
                "Replication", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                "Geo",
                "EventLog", "Forms", "MQTTBridge", "MQTTConnect", "Muster", "MusterWire", "PushDelivery",
                "PushProviders",
                "WebApp",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // The push providers (APNs, FCM, Web Push): credentials, payloads, encryption and the HTTP exchange of
        // one push. Knows nothing of the log; the delivery service feeds it from the outbox.
        .target(
            name: "PushProviders",
            dependencies: [
                "MusterWire",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),

        // The delivery service: sends the outbox through the providers and records every attempt.
        .target(
            name: "PushDelivery",
            dependencies: [
                "EventLog", "Muster", "MusterWire", "PushProviders",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // Local stand-ins for APNs, FCM and a Web Push endpoint, speaking the real protocols on loopback
        // (HTTP/2 over TLS, signed tokens, encrypted bodies): for tests and the benchmark.
        .target(
            name: "PushTesting",
            dependencies: [
                "PushProviders",
                "EventLogTesting",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),

        // One MQTT connection over libmosquitto: its network loop on its own thread, QoS 1 publishes that return on
        // PUBACK, inbound batches acknowledged only after the caller stored them. No MQTT protocol code of its own.
        .target(
            name: "MQTT",
            dependencies: [
                "CMosquitto",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // A real mosquitto broker on a free loopback port (password file, ACLs, persistence) and device-side
        // clients, for tests and the benchmark.
        // The MQTT edge: devices' publications made into domain calls, deliveries to MQTT devices published as
        // DialogMessages, settings messages and their receipts. Only translates.
        .target(
            name: "MQTTBridge",
            dependencies: [
                "EventLog", "Forms", "Geo", "MQTT", "MQTTConnect", "Muster", "MusterWire", "PushProviders",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        .target(
            name: "MQTTTesting",
            dependencies: ["MQTT", "EventLogTesting"]
        ),

        // One connection to NATS over libnats: JetStream streams, publishes acknowledged with the stream's sequence
        // (fenced by the expected last sequence), in-order reading from a sequence, and key-value buckets with
        // compare-and-set. Blocking libnats calls run on threads of their own, never on the cooperative pool.
        .target(
            name: "NATS",
            dependencies: ["CNATS", .product(name: "Logging", package: "swift-log")]
        ),

        // Beyond one node: a namespace's log published to its JetStream stream position for position on its
        // primary (fenced by the expected last sequence), followed into the log of each replica, and the write gate
        // that answers writes once replicated.
        .target(
            name: "Replication",
            dependencies: [
                "EventLog", "NATS", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Real nats-server processes with JetStream (one, or a cluster of three) on free loopback ports, killed,
        // paused and restarted by tests.
        .target(
            name: "NATSTesting",
            dependencies: ["NATS", "EventLogTesting"]
        ),

        // Headless Chromium driven by chromedriver (W3C WebDriver), for the web app's tests and benchmark.
        .target(
            name: "BrowserTesting",
            dependencies: [
                "EventLogTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),

        // The Swift client SDK: the operations of the VantiqUI class, over HTTP, for Linux and Apple.
        .target(
            name: "MusterClient",
            dependencies: ["Geo", "MusterWire", .product(name: "Crypto", package: "swift-crypto")]
        ),

        // The operator's command line.
        .executableTarget(
            name: "muster",
            dependencies: [
                "EventLog", "Geo", "Migrations", "MQTT", "MQTTBridge", "MQTTConnect", "Muster", "MusterHTTP",
                "MusterClient",
                "MusterWire", "NATS", "PushDelivery", "PushProviders", "Replication",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),

        // Benchmarks: release build, ratios against raw LMDB and real peers in the same run.
        .executableTarget(
            name: "bench",
            dependencies: [
                "EventLog", "Migrations", "EventLogTesting", "CLMDB", "CZstd", "Geo", "Muster", "MusterHTTP",
                "MusterWire", "PushDelivery", "PushProviders", "PushTesting", "BrowserTesting", "MQTT", "MQTTBridge",
                "MQTTTesting", "NATS", "NATSTesting", "Replication",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tools/bench"
        ),

        // Appends from many tasks and prints each acknowledged position; killed mid-load by the durability test.
        .executableTarget(
            name: "muster-loadgen",
            dependencies: ["EventLog"],
            path: "Tools/loadgen"
        ),

        // libFuzzer harnesses of the decoders that take outside bytes. `Tools/fuzz` builds it with
        // `-sanitize=fuzzer -DLIBFUZZER` (libFuzzer's main); a normal build replays corpus files through it.
        .executableTarget(
            name: "muster-fuzz",
            dependencies: ["EventLog", "Forms", "Geo", "MQTTConnect", "Muster", "MusterClient", "MusterWire"],
            path: "Fuzz/Harnesses"
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
            dependencies: [
                "Muster", "EventLog", "EventLogTesting", "Forms", "Geo", "Migrations", "MQTTConnect", "MusterWire",
            ]
        ),
        .testTarget(
            name: "FormsTests",
            dependencies: ["Forms", "MusterWire", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "MusterHTTPTests",
            dependencies: [
                "MusterHTTP", "Muster", "EventLog", "EventLogTesting", "Forms", "MusterWire", "PushTesting",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                "Replication", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "PushProvidersTests",
            dependencies: ["PushProviders", "PushTesting", "MusterWire"]
        ),
        .testTarget(
            name: "PushDeliveryTests",
            dependencies: [
                "PushDelivery", "PushProviders", "PushTesting", "Muster", "MusterWire", "EventLog", "EventLogTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "MQTTConnectTests",
            dependencies: [
                "MQTTConnect", "Forms", "MusterWire", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "GeoTests",
            dependencies: ["Geo", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "MusterClientTests",
            dependencies: ["MusterClient"]
        ),
        .testTarget(
            name: "MQTTTests",
            dependencies: ["MQTT", "MQTTTesting", "EventLogTesting", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "ReplicationTests",
            dependencies: [
                "Replication", "EventLog", "EventLogTesting", "NATS", "NATSTesting",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "NATSTests",
            dependencies: ["NATS", "NATSTesting", "EventLogTesting"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "EventLog", "EventLogTesting", "Muster", "Forms", "MusterClient", "MusterWire", "PushProviders",
                "PushTesting", "BrowserTesting", "MQTT", "MQTTTesting", "NATS", "NATSTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
    ]
)
