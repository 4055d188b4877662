/// Canonical text forms of typed values (for findings, keys and messages).
package enum ValueText {
    /// A double without a trailing `.0` for integral values: `12`, `12.5`, `-0.25`.
    public static func canonical(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }
}
