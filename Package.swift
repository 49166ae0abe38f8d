// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Layercast",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "layercast", targets: ["layercast"]),
        .library(name: "LayercastEngine", targets: ["LayercastEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C libraries named by the product design, reached through pkg-config.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        .systemLibrary(
            name: "CJansson",
            pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]
        ),

        // The Core Animation model: pure Swift, no I/O, no C dependency.
        .target(name: "LayercastEngine"),

        // JSON values over jansson: the one place that talks to the C JSON library.
        .target(name: "LayercastJSON", dependencies: ["CJansson"]),

        // `layercast sample`: scene descriptions in, presentation samples out.
        .target(name: "LayercastSample", dependencies: ["LayercastEngine", "LayercastJSON"]),

        .executableTarget(
            name: "layercast",
            dependencies: [
                "LayercastSample",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "LayercastBench", dependencies: ["LayercastEngine"]),

        .testTarget(name: "LayercastEngineTests", dependencies: ["LayercastEngine"]),
        .testTarget(name: "LayercastSampleTests", dependencies: ["LayercastSample", "LayercastJSON", "CLibWebSockets"]),
    ]
)
