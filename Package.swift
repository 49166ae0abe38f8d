// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Layercast",
    // Linux only: the service links libwebsockets, libev, jansson, libpq and hiredis through
    // pkg-config and calls Linux-only APIs (epoll through libev, SO_REUSEPORT workers,
    // /proc/self/exe), so no Apple platform is claimed here; nothing is built or tested on macOS.
    products: [
        .executable(name: "layercast", targets: ["layercast"]),
        // The service as a library: `LayercastCommand.main(scenes:)` in your own `main`, with the
        // engine and the scene API re-exported (docs/writing-a-scene.md).
        .library(name: "Layercast", targets: ["Layercast"]),
        // Our shipped scenes (rain, snow, book, cubes, radar, reveal; `SceneCatalog.all`), for our
        // `layercast` and anyone who serves them beside their own.
        .library(name: "LayercastScenes", targets: ["LayercastScenes"]),
        .library(name: "LayercastEngine", targets: ["LayercastEngine"]),
        .library(name: "LayercastSceneTesting", targets: ["LayercastSceneTesting"]),
        .library(name: "LayercastUIKit", targets: ["LayercastUIKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // C libraries named by the product design, reached through pkg-config.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        // libev's loop, which libwebsockets drives through its libev event-lib plugin (epoll,
        // where lws's own loop polls every socket). No pkg-config file: ev.h and -lev.
        .systemLibrary(
            name: "CLibEv",
            providers: [.apt(["libev-dev"])]
        ),
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(
            name: "CHiredis",
            pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        // OpenSSL's libcrypto, for SHA-256 and HMAC-SHA256 (LayercastDigest). The binary links it
        // anyway, through libwebsockets and libpq; swift-crypto, which it replaces, compiled
        // BoringSSL's ~370 C files into every first build (issue 39).
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),

        // The Core Animation model: pure Swift, no I/O, no C dependency.
        .target(name: "LayercastEngine"),

        // JSON values over jansson: the one place that talks to the C JSON library.
        .target(name: "LayercastJSON", dependencies: ["CJansson"]),

        // SHA-256 and HMAC-SHA256 over libcrypto: the one place that talks to OpenSSL.
        .target(name: "LayercastDigest", dependencies: ["CLibCrypto"]),

        // `layercast sample`: scene descriptions in, presentation samples out.
        .target(name: "LayercastSample", dependencies: ["LayercastEngine", "LayercastJSON", "LayercastWire"]),

        // What a scene is written with, and what the wire and the hub speak of it: the `Scene` and
        // `SceneController` protocols, the stage, options, taps, events, assets, rounds and awards,
        // and the refusals a scene answers with (`ErrorCode`, `APIError`, `ProtocolError`, `FieldReader`).
        .target(
            name: "LayercastSceneAPI",
            dependencies: ["LayercastEngine", "LayercastJSON", .product(name: "Logging", package: "swift-log")]
        ),

        // The scenes we ship (product `LayercastScenes`), a folder each, written in Core Animation
        // style on the scene API, with each one's server-side behaviour (admin commands, claims,
        // what it persists). Nothing of the hub, the transport or the cluster depends on them.
        .target(
            name: "LayercastScenes",
            dependencies: [
                "LayercastEngine", "LayercastJSON", "LayercastSceneAPI",
                "LayercastWire",  // Quantize, as the scenes' events round times
                "LayercastDigest",  // the rain's commitments (RainCommitment)
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.process("Resources")]  // the scenes' images (SceneAsset), served at /assets/{scene}/{file}
        ),

        // A scene run in a harness as a room runs it, with a manual clock and no sockets: for
        // scene authors' tests (docs/testing-a-scene.md).
        .target(name: "LayercastSceneTesting", dependencies: ["LayercastEngine", "LayercastSceneAPI", "LayercastWire"]),

        // Player identities: tokens signed by the embedding app (HMAC-SHA256).
        .target(name: "LayercastIdentity", dependencies: ["LayercastJSON", "LayercastDigest"]),

        // The award ledger: rains and awards committed to SQLite or PostgreSQL before anyone hears of them.
        .target(name: "LayercastLedger", dependencies: ["CSQLite", "CLibPQ"]),

        // The frame protocol: display lists, deltas, message encoding and decoding. No I/O.
        .target(name: "LayercastWire", dependencies: ["LayercastEngine", "LayercastJSON", "LayercastSceneAPI"]),

        // What the server and the load tool share of the platform: libwebsockets'
        // permessage-deflate table, and the libev loop and timers their lws contexts run on.
        .target(name: "LayercastPlatform", dependencies: ["CLibEv", "CLibWebSockets"]),

        // The hub: rooms, clients, input rules, ticks, admin commands and each client's outbound
        // queue, behind a small transport protocol. No sockets, no lws, no scene by name.
        .target(
            name: "LayercastHub",
            dependencies: [
                "LayercastSceneAPI", "LayercastWire", "LayercastEngine", "LayercastJSON",
                "LayercastIdentity", "LayercastLedger", "LayercastAudit",
                "LayercastDigest",  // the scenes' images' ETags (SceneAssetFile)
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // `layercast serve`: the libwebsockets transport of the hub: HTTP routes, static files,
        // the WebSocket write path.
        .target(
            name: "LayercastServer",
            dependencies: [
                "CLibWebSockets", "CZlib", "LayercastPlatform", "LayercastEngine", "LayercastHub", "LayercastSceneAPI", "LayercastWire",
                "LayercastJSON", "LayercastIdentity", "LayercastLedger", "LayercastAudit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // `layercast serve --cluster`: placement, relayed rooms and forwarded input over Redis
        // (docs/cluster.md); the one place that talks to hiredis.
        .target(
            name: "LayercastCluster",
            dependencies: [
                "CHiredis", "LayercastEngine", "LayercastHub", "LayercastJSON", "LayercastWire", "LayercastSceneAPI",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // `layercast replay`: a recorded round re-simulated by its scene's `RoundAuditor` and checked
        // against the ledger.
        .target(name: "LayercastAudit", dependencies: ["LayercastJSON", "LayercastLedger", "LayercastSceneAPI"]),

        // `layercast loadtest`: scripted WebSocket clients on libwebsockets' client API, its worker
        // processes, their report, and scenario files (JSON or YAML, read with Yams).
        .target(
            name: "LayercastLoad",
            dependencies: [
                "CLibWebSockets", "LayercastPlatform", "LayercastEngine", "LayercastJSON", "LayercastIdentity",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Yams", package: "Yams"),  // scenario files (docs/loadtest.md, "Scenarios")
            ]
        ),

        // UIKit's views, animation blocks and gesture recognizers over engine layers, so UIKit
        // animation code ports (docs/engine-model.md §12, docs/writing-a-scene.md §3, "UIKit code").
        .target(name: "LayercastUIKit", dependencies: ["LayercastEngine", "LayercastSceneAPI"]),

        // The service as a library (product `Layercast`): the `layercast` command tree with the
        // scenes its caller registers, and what a scene author imports (not our shipped scenes:
        // product `LayercastScenes`).
        .target(
            name: "Layercast",
            dependencies: [
                "LayercastEngine",
                "LayercastJSON",
                "LayercastSceneAPI",
                "LayercastUIKit",
                "LayercastSample",
                "LayercastAudit",
                "LayercastLedger",
                "LayercastHub",
                "LayercastServer",
                "LayercastCluster",
                "LayercastLoad",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/LayercastService"  // not Sources/Layercast: it would differ from Sources/layercast only in case
        ),
        // Our `layercast`: `LayercastCommand.main` with the shipped scenes.
        .executableTarget(name: "layercast", dependencies: ["Layercast", "LayercastScenes"]),
        .executableTarget(name: "LayercastBench", dependencies: ["LayercastEngine"]),
        .executableTarget(name: "LayercastFrameBench", dependencies: ["CZlib", "LayercastEngine", "LayercastJSON", "LayercastSceneAPI", "LayercastScenes", "LayercastWire"]),

        .testTarget(name: "LayercastEngineTests", dependencies: ["LayercastEngine"]),
        .testTarget(name: "LayercastUIKitTests", dependencies: ["LayercastUIKit", "LayercastEngine", "LayercastSceneAPI"]),
        .testTarget(name: "LayercastDigestTests", dependencies: ["LayercastDigest"]),
        .testTarget(name: "LayercastScenesTests", dependencies: ["LayercastScenes", "LayercastSceneAPI", "LayercastEngine", "LayercastJSON", "LayercastWire", "LayercastSceneTesting"]),
        .testTarget(name: "LayercastSceneTestingTests", dependencies: ["Layercast", "LayercastSceneTesting", "LayercastScenes", "LayercastSceneAPI", "LayercastEngine", "LayercastJSON", "LayercastWire"]),
        .testTarget(name: "LayercastWireTests", dependencies: ["LayercastWire", "LayercastSceneAPI", "LayercastEngine", "LayercastJSON"]),
        .testTarget(name: "LayercastIdentityTests", dependencies: ["LayercastIdentity"]),
        .testTarget(name: "LayercastLedgerTests", dependencies: ["LayercastLedger"]),
        .testTarget(
            name: "LayercastHubTests",
            dependencies: ["LayercastHub", "LayercastScenes", "LayercastSceneAPI", "LayercastWire", "LayercastJSON", "LayercastIdentity", "LayercastLedger"],
            exclude: ["metrics.prom"]  // MetricsTextTests' expected text, read from the source tree
        ),
        .testTarget(name: "LayercastClusterTests", dependencies: [
            "LayercastCluster", "LayercastEngine", "LayercastHub", "LayercastIdentity", "LayercastJSON", "LayercastLedger", "LayercastSceneAPI", "LayercastScenes",
            "LayercastWire", .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "LayercastServerTests", dependencies: [
            "CZlib", "LayercastServer", "LayercastHub", "LayercastWire", "LayercastLedger", "LayercastSceneAPI", "LayercastScenes", "LayercastIdentity",
            "LayercastJSON", .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "LayercastPlatformTests", dependencies: ["LayercastPlatform"]),
        .testTarget(name: "LayercastServiceTests", dependencies: [
            "Layercast", "LayercastHub", "LayercastScenes", .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "LayercastLoadTests", dependencies: ["LayercastLoad", "LayercastJSON", "LayercastWire"]),
        .testTarget(name: "LayercastSampleTests", dependencies: ["LayercastSample", "LayercastJSON", "CLibWebSockets"]),
    ]
)

// libFuzzer targets, one per parser of untrusted input (Fuzz/, run by scripts/fuzz.sh). They hand
// over to libFuzzer's driver, which only a -sanitize=fuzzer link provides, so they exist only in the
// fuzz build: LAYERCAST_FUZZ=1 swift build --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address.
if Context.environment["LAYERCAST_FUZZ"] == "1" {
    func fuzzTarget(_ name: String, _ parser: Target.Dependency) -> Target {
        .executableTarget(name: name, dependencies: ["FuzzDriver", parser], path: "Fuzz/Targets/\(name)")
    }
    package.targets += [
        .target(name: "FuzzDriver", path: "Fuzz/Targets/FuzzDriver"),
        fuzzTarget("FuzzClientMessage", "LayercastWire"),
        fuzzTarget("FuzzJoinRequest", "LayercastHub"),
        fuzzTarget("FuzzAdminBody", "LayercastScenes"),
        fuzzTarget("FuzzPlayerToken", "LayercastIdentity"),
        fuzzTarget("FuzzSampleDocument", "LayercastSample"),
    ]
}
