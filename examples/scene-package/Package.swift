// swift-tools-version:6.0
import PackageDescription

// A scene author's package: scenes of its own (CardFlip, and the ports ProgressRing, HeartBurst and
// ReplicatorBars), their tests, and a binary that serves the card flip next to Layercast's shipped
// scenes. It uses Layercast's products only, so it would
// be the same with `.package(url: "https://…/layercast.git", from: "…")` in place of the path.
// Linux only, as Layercast itself.
let package = Package(
    name: "CardFlipExample",
    products: [
        .executable(name: "card-flip-server", targets: ["CardFlipServer"]),
    ],
    dependencies: [
        .package(name: "Layercast", path: "../.."),
    ],
    targets: [
        // The scene: a library, so that the tests and the server both import it.
        // Its image ships as a resource (Bundle.module), served at /assets/card-flip/card-mark.svg.
        .target(name: "CardFlip", dependencies: [.product(name: "Layercast", package: "Layercast")],
                resources: [.process("Resources")]),
        // `card-flip-server serve …`: Layercast's whole command tree with our scenes and this one.
        .executableTarget(name: "CardFlipServer", dependencies: [
            "CardFlip", .product(name: "Layercast", package: "Layercast"),
            .product(name: "LayercastScenes", package: "Layercast"),  // our shipped scenes (SceneCatalog)
        ]),
        // A second port: the strokeEnd progress ring, written with the original's iOS spellings.
        .target(name: "ProgressRing", dependencies: [.product(name: "Layercast", package: "Layercast")]),
        .testTarget(name: "ProgressRingTests", dependencies: [
            "ProgressRing",
            .product(name: "Layercast", package: "Layercast"),
            .product(name: "LayercastSceneTesting", package: "Layercast"),
        ]),
        // The heart burst: a CAEmitterLayer whose cell's birthRate an animation bursts; its heart image
        // is a resource, as the card's mark.
        .target(name: "HeartBurst", dependencies: [.product(name: "Layercast", package: "Layercast")],
                resources: [.process("Resources")]),
        .testTarget(name: "HeartBurstTests", dependencies: [
            "HeartBurst",
            .product(name: "Layercast", package: "Layercast"),
            .product(name: "LayercastSceneTesting", package: "Layercast"),
        ]),
        // The replicator loading bars: a CAReplicatorLayer with an instanceDelay.
        .target(name: "ReplicatorBars", dependencies: [.product(name: "Layercast", package: "Layercast")]),
        .testTarget(name: "ReplicatorBarsTests", dependencies: [
            "ReplicatorBars",
            .product(name: "Layercast", package: "Layercast"),
            .product(name: "LayercastSceneTesting", package: "Layercast"),
        ]),
        .testTarget(name: "CardFlipTests", dependencies: [
            "CardFlip",
            .product(name: "Layercast", package: "Layercast"),
            .product(name: "LayercastSceneTesting", package: "Layercast"),
        ]),
    ]
)
