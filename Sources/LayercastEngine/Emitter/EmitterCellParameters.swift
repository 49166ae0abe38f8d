import Foundation

/// A cell's values that a particle is born with; the defaults are Core Animation's.
struct EmitterCellParameters: Equatable, Sendable {
    var name: String?
    var isEnabled = true
    var birthRate: Float = 0
    var lifetime: Float = 0
    var lifetimeRange: Float = 0
    var emissionLatitude: CGFloat = 0
    var emissionLongitude: CGFloat = 0
    var emissionRange: CGFloat = 0
    var velocity: CGFloat = 0
    var velocityRange: CGFloat = 0
    var xAcceleration: CGFloat = 0
    var yAcceleration: CGFloat = 0
    var zAcceleration: CGFloat = 0
    var scale: CGFloat = 1
    var scaleRange: CGFloat = 0
    var scaleSpeed: CGFloat = 0
    var spin: CGFloat = 0
    var spinRange: CGFloat = 0
    var color: CGColor? = .white
    var redRange: Float = 0
    var greenRange: Float = 0
    var blueRange: Float = 0
    var alphaRange: Float = 0
    var redSpeed: Float = 0
    var greenSpeed: Float = 0
    var blueSpeed: Float = 0
    var alphaSpeed: Float = 0
    var contents: CGImage?
}
