import Foundation
import LayercastEngine

/// The property changes of an `animateKeyframes` block, per view and property, with the relative
/// window of the `addKeyframe` they were made in; `animations` turns each into one keyframe animation.
final class KeyframeTracks {
    private struct Stop {
        var start: Double
        var end: Double
        var value: Any
    }

    private struct Track {
        let view: UIView
        let property: ViewProperty
        let initial: Any
        var stops: [Stop]
    }

    private var tracks: [Track] = []
    /// The relative start and duration of the keyframe being recorded; the whole block outside one.
    var window: (start: Double, duration: Double) = (0, 1)

    func record(_ property: ViewProperty, of view: UIView, from old: Any?, to new: Any?) {
        guard property != .hidden, property != .contents else { return }
        let stop = Stop(start: window.start, end: window.start + window.duration, value: Self.value(new, property))
        if let index = tracks.firstIndex(where: { $0.view === view && $0.property == property }) {
            tracks[index].stops.append(stop)
        } else {
            tracks.append(Track(view: view, property: property, initial: Self.value(old, property), stops: [stop]))
        }
    }

    /// One `CAKeyframeAnimation` per track: its values at 0, at each keyframe's start (the value
    /// held so far) and end, and at 1; with the key path's name as key, replacing.
    func animations() -> [(layer: CALayer, animation: CAKeyframeAnimation)] {
        tracks.map { track in
            var times: [Double] = [0], values: [Any] = [track.initial]
            for stop in track.stops.sorted(by: { $0.start < $1.start }) {
                if stop.start > times.last! {
                    times.append(stop.start)
                    values.append(values.last!)
                }
                times.append(max(stop.end, times.last!))
                values.append(stop.value)
            }
            if times.last! < 1 {
                times.append(1)
                values.append(values.last!)
            }
            let animation = CAKeyframeAnimation(keyPath: track.property.rawValue)
            animation.values = values
            animation.keyTimes = times.map { CGFloat($0) }
            return (track.view.layer, animation)
        }
    }

    /// A recorded value as a keyframe value (no colour is transparent black).
    private static func value(_ any: Any?, _ property: ViewProperty) -> Any {
        any ?? (property == .backgroundColor ? CGColor.clear : 0)
    }
}
