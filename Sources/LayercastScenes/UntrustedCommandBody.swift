import LayercastSceneAPI
import LayercastWire

/// The shipped scenes' admin command bodies, parsed by the parsers their controllers use, over
/// the built-in defaults: reachable from outside the module for the fuzz targets (Fuzz/) and the
/// corpus tests. Each answers only how the parse ended: nil when accepted, else the refusal.
public enum UntrustedCommandBody {
    /// The body of the rain's `POST /api/rooms/{room}/rain`.
    public static func rain(_ body: [UInt8]) -> APIError? {
        refusal(RainRequest.order(from: body, defaults: RainRequest.Order(settings: RainSettings()), seed: 1))
    }

    /// The body of the snow's `POST /api/rooms/{room}/snow`.
    public static func snow(_ body: [UInt8]) -> APIError? {
        refusal(SnowRequest.settings(from: body, current: SnowSettings()))
    }

    private static func refusal<T>(_ result: Result<T, APIError>) -> APIError? {
        if case .failure(let error) = result { error } else { nil }
    }
}
