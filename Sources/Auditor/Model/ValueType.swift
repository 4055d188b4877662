/// The value types an attribute can declare.
public enum ValueType: String, Sendable, CaseIterable {
    case string
    case integer
    case decimal
    case boolean
    case date
    case datetime

    /// "an integer", for messages.
    public var phrase: String {
        switch self {
        case .string: return "text"
        case .integer: return "an integer"
        case .decimal: return "a decimal number"
        case .boolean: return "true or false"
        case .date: return "a date (YYYY-MM-DD)"
        case .datetime: return "a date-time (YYYY-MM-DDTHH:MM:SSZ)"
        }
    }

    /// Whether `min`/`max` apply.
    public var isOrdered: Bool {
        switch self {
        case .integer, .decimal, .date, .datetime: return true
        case .string, .boolean: return false
        }
    }
}
