// swift-tools-version:6.0
import PackageDescription

// A compile test of the public scene API (docs/writing-a-scene.md §8): one scene, `CoverageScene`, and
// its controller and auditor implement every requirement of the public scene protocols (taps, drags,
// options, commands, events, assets, rounds and payouts) with `import Layercast` alone; its tests
// implement the services' protocols too and run it through LayercastSceneTesting. It uses no scene
// that Layercast ships. Layercast's CI builds and tests it (scripts/test.sh). Linux only.
let package = Package(
    name: "APICoverage",
    dependencies: [
        .package(name: "Layercast", path: "../.."),
    ],
    targets: [
        .target(name: "APICoverage", dependencies: [.product(name: "Layercast", package: "Layercast")],
                resources: [.process("Resources")]),
        .testTarget(name: "APICoverageTests", dependencies: [
            "APICoverage",
            .product(name: "Layercast", package: "Layercast"),
            .product(name: "LayercastSceneTesting", package: "Layercast"),
        ]),
    ]
)
