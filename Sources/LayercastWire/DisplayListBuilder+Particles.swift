import Foundation
import LayercastEngine

extension DisplayListBuilder {
    /// The particles of an emitter layer's item at its local time `time` (protocol.md,
    /// "Particles"): the records its state holds, advanced by the births since the last frame and
    /// what newly shows inside the scene rect, at most the layer's `maxParticles` and what is left
    /// of the frame's `maxParticles`. `clockRate` is how fast the layer's time runs on the frame clock.
    func births(of layer: CAEmitterLayer, at time: CFTimeInterval, clockRate: Double, bounds: CGRect,
                toScene m: CATransform3D) -> DrawBirths {
        let key = ItemKey(layer: ObjectIdentifier(layer), copy: copyPath)
        guard !(layer.emitterCells ?? []).isEmpty else {
            emitterStates[key] = nil
            return DrawBirths()
        }
        let clock = DrawParticleClock(rate: Quantize.time(clockRate), offset: Quantize.fraction(time - clockRate * frameTime))
        let basis = EmitterItemState.Basis(revision: layer.particleBirthsRevision, clock: clock, boundsOrigin: bounds.origin,
                                           tint: copyTint)
        let state: EmitterItemState
        if let known = emitterStates[key] {
            state = known
            // Anything that can rewrite what was sent, or a frame without the item: start afresh.
            if known.basis != basis || known.build != builds - 1 || time < known.localTime { state.restart(basis) }
        } else {
            state = EmitterItemState(basis: basis, build: builds)
            emitterStates[key] = state
        }
        state.build = builds
        let births = state.advance(layer, to: time, frameTime: frameTime, visibility: ParticleVisibility(toScene: m, scene: sceneSize),
                                   capacity: min(layer.maxParticles, particleBudget))
        particleBudget -= births.records.count
        return births
    }
}
