import Layercast

/// The coverage scene's own refusal, declared by the scene as every scene declares its codes.
extension ErrorCode {
    /// A coverage round is running, or its start or a claim is being recorded (409).
    public static let roundRunning = ErrorCode(rawValue: "round_running")
}
