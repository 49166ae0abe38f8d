// swift-tools-version:6.0
import PackageDescription

// UIKit animation code from public iOS projects, ported with `import Layercast` (LayercastUIKit):
// a spring like button, a roulette wheel spun with UIView.animate, cards flipped with
// UIView.transition. Each scene cites its original; each is tested through LayercastSceneTesting.
// Linux only, as Layercast itself.
let package = Package(
    name: "UIKitExamples",
    products: [
        .executable(name: "uikit-examples-server", targets: ["UIKitExamplesServer"]),
    ],
    dependencies: [
        .package(name: "Layercast", path: "../.."),
    ],
    targets: [
        // The three scenes: a library, so that the tests and the server both import it.
        .target(name: "UIKitExamples", dependencies: [.product(name: "Layercast", package: "Layercast")]),
        // `uikit-examples-server serve …`: Layercast's command tree with our scenes and these three.
        .executableTarget(name: "UIKitExamplesServer", dependencies: [
            "UIKitExamples", .product(name: "Layercast", package: "Layercast"),
            .product(name: "LayercastScenes", package: "Layercast"),  // Layercast's shipped scenes (SceneCatalog)
        ]),
        .testTarget(name: "UIKitExamplesTests", dependencies: [
            "UIKitExamples",
            .product(name: "Layercast", package: "Layercast"),
            .product(name: "LayercastSceneTesting", package: "Layercast"),
        ]),
    ]
)
