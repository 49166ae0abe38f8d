import Foundation

/// The emitter layer's values that a particle is born with: shape, multipliers and seed.
struct EmitterLayerParameters: Equatable, Sendable {
    var emitterPosition = CGPoint.zero
    var emitterZPosition: CGFloat = 0
    var emitterSize = CGSize.zero
    var emitterDepth: CGFloat = 0
    var emitterShape = CAEmitterLayerEmitterShape.point
    var emitterMode = CAEmitterLayerEmitterMode.volume
    var birthRate: Float = 1
    var lifetime: Float = 1
    var velocity: Float = 1
    var scale: Float = 1
    var spin: Float = 1
    var seed: UInt32 = 0
}
