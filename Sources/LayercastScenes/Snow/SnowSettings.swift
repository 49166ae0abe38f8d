import Foundation
import LayercastSceneAPI

/// What the snowfall shows (docs/scenes.md §3): which images fall, how many per second and which of
/// the seed's set-ups makes them. The server chooses; it can change them while it snows.
public struct SnowSettings: Equatable, Sendable {
    /// The set-up the particles come from.
    public enum Mode: String, CaseIterable, Sendable {
        /// Plain cells, one per image, each at `rate / images.count`: exactly `rate` per second
        /// (the engine's rates are exact, so no container is needed).
        case exact
        /// The seed's final piecewise container fix: about 1.1 × `rate` (`emittedRate`).
        case container
        /// The seed's demo 2 as first written: containers at 10/s living 0.35 s, each emitting
        /// `rate / images.count` per second: 3.5 × `rate` (10 × 0.35 × 2 = 7 for 2).
        case demo
    }

    /// Asset ids of the images that fall, each once, at least one.
    public var images: [String] = ["snowflake"]
    /// Particles per second asked for, over all images, 0…`maxRate`.
    public var rate: Double = 10
    /// The set-up the particles come from; `.exact` by default.
    public var mode: Mode = .exact

    /// The most particles per second a request may ask for (× 120 s of life = 12 000 alive:
    /// far beyond the room's particle cap, which keeps the newest).
    public static let maxRate: Double = 100

    /// Settings of one snowflake image at 10 per second unless told otherwise.
    public init(images: [String] = ["snowflake"], rate: Double = 10, mode: Mode = .exact) {
        self.images = images
        self.rate = rate
        self.mode = mode
    }

    /// nil when valid for a scene showing `assets`, else a message naming the field.
    public func validationError(assets: [String]) -> String? {
        if images.isEmpty { return "images must name at least one image" }
        if let unknown = images.first(where: { !assets.contains($0) }) {
            return "images: \"\(unknown.prefix(64))\" is not an image of the scene; images are \(assets.joined(separator: ", "))"
        }
        if Set(images).count != images.count { return "images must not name an image twice" }
        if !rate.isFinite || rate < 0 || rate > Self.maxRate { return "rate must be a number of particles per second from 0 to \(Int(Self.maxRate))" }
        return nil
    }

    /// The rate per image.
    var ratePerImage: Double { images.isEmpty ? 0 : rate / Double(images.count) }

    /// Particles per second the engine emits with these settings, on average (docs/engine-model.md
    /// §9.2: a container at c/s living L s emitting r/s gives c × L × r), to 1e-6.
    public var emittedRate: Double { (unroundedEmittedRate * 1e6).rounded() / 1e6 }

    private var unroundedEmittedRate: Double {
        let q = ratePerImage
        switch mode {
        case .exact: return rate
        case .demo: return Double(images.count) * Double(SnowScene.demoContainerRate * SnowScene.demoContainerLifetime * Float(q))
        case .container:
            let fix = SnowScene.containerFix(q)
            return Double(images.count) * Double(fix.containerRate * fix.containerLifetime * fix.cellRate)
        }
    }
}
