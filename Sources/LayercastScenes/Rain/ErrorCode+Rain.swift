import LayercastSceneAPI

/// The rain's own refusals of its admin commands (protocol.md, "Rain"; openapi.yaml).
extension ErrorCode {
    /// A rain is already counting down or falling in the room, or its start is being recorded (409).
    public static let rainRunning = ErrorCode(rawValue: "rain_running")
    /// No rain is counting down or falling in the room: nothing to stop (409).
    public static let noRain = ErrorCode(rawValue: "no_rain")
}
