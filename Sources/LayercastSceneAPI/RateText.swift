/// Rates as messages show them.
public enum RateText {
    /// "8", "2.5".
    public static func decimal(_ x: Double) -> String { x.rounded() == x && abs(x) < 1e15 ? "\(Int(x))" : "\(x)" }
}
