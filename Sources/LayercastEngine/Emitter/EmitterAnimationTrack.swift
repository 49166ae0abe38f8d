import Foundation

/// An animation on emitter key paths as particles see it (docs/engine-model.md §9.7): the attached
/// copy, with the stretch of layer time it was attached, so births keep its values after it is removed.
struct EmitterAnimationTrack {
    let animation: CAAnimation
    let keyPaths: [EmitterKeyPath]
    /// Layer time it was attached at.
    let attached: CFTimeInterval
    /// Layer time it was detached at (removed, replaced or finished); infinity while attached.
    let detached: CFTimeInterval

    /// Whether it applies at layer time `t`.
    func isApplied(at t: CFTimeInterval) -> Bool {
        attached <= t && t < detached
    }

    /// Whether it drives one of `parameters` of the cell named `names` (empty: the layer's own).
    func drives(_ parameters: Set<EmitterParameter>, of names: [String]) -> Bool {
        keyPaths.contains { $0.cellNames == names && parameters.contains($0.parameter) }
    }

    /// The layer times between which its value can change: its active interval (§2) within the
    /// time it was attached; before and after it the value is constant (a fill) or absent.
    var variation: (low: CFTimeInterval, high: CFTimeInterval)? {
        guard let timing = animation.resolved, timing.speed != 0 else { return nil }
        let length = timing.activeDuration / abs(timing.speed)
        let (low, high) = timing.speed > 0 ? (timing.beginTime, timing.beginTime + length) : (timing.beginTime - length, timing.beginTime)
        let from = max(low, attached), to = min(high, detached)
        return from < to ? (from, to) : nil
    }
}

/// The emitter values in effect at a layer time: the recorded (model) values with the emitter
/// animations applied in the order they were added (§9.7).
struct EmitterPresenter {
    let tracks: [EmitterAnimationTrack]

    var isEmpty: Bool { tracks.isEmpty }

    /// The layer's values at `t` from its model values `base`.
    func layer(_ base: EmitterLayerParameters, at t: CFTimeInterval) -> EmitterLayerParameters {
        tracks.isEmpty ? base : present(base, names: [], at: t)
    }

    /// A cell's values at `t` from its model values `base`; `names` nil: no key path reaches it.
    func cell(_ base: EmitterCellParameters, names: [String]?, at t: CFTimeInterval) -> EmitterCellParameters {
        guard let names, !tracks.isEmpty else { return base }
        return present(base, names: names, at: t)
    }

    private func present<V: EmitterAnimatable>(_ base: V, names: [String], at t: CFTimeInterval) -> V {
        var values = base
        for track in tracks where track.isApplied(at: t) {
            track.animation.applyEmitter(to: &values, cellNames: names, parentTime: t)
        }
        return values
    }
}
