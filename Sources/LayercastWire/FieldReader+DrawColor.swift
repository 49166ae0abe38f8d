import LayercastSceneAPI

extension FieldReader {
    /// A `#rrggbb` or `#rrggbbaa` colour.
    func color() throws(ProtocolError) -> DrawColor {
        guard case .string(let s)? = value, let color = DrawColor(hex: s) else { throw error("a colour \"#rrggbb\" or \"#rrggbbaa\"") }
        return color
    }
}
