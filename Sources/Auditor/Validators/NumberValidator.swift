/// Bounds, integrality and allowed values of a number (TWTValidation's `TWTNumberValidator`).
///
/// Reads `.integer`, `.decimal` and numeric text (parsed strictly: `-?[0-9]+(\.[0-9]+)?`).
/// Anything else — other text, `.null`, NaN, lists — is one `type` violation (2001, "must
/// be a number") and no other check runs on it. Otherwise every failing check is reported:
/// `-0.5` against `min: 0, integral: true` gives two violations.
///
/// | check | kind | code |
/// | --- | --- | --- |
/// | `min` / `exclusiveMin` | `min` / `exclusiveMin` | 1620 |
/// | `max` / `exclusiveMax` | `max` / `exclusiveMax` | 1610 |
/// | `integral` | `integral` | 2003 |
/// | `enum` | `enum` | 2002 |
///
/// Parameters: the bounds as written in canonical form (`min` → `0`), `value`.
public struct NumberValidator: Validator {
    public var min: Double?
    public var max: Double?
    public var exclusiveMin: Double?
    public var exclusiveMax: Double?
    /// Whether the number must be whole (`12.0` is whole, `12.5` is not).
    public var integral: Bool
    /// The allowed numbers, compared numerically (`1` equals `1.0`), or `nil` for any.
    public var allowedValues: [Double]?
    /// Replaces the default message of every violation of this validator.
    public var message: MessageTemplate?
    /// Replaces the default code of every violation of this validator.
    public var code: Int?

    /// - Parameters:
    ///   - min: The least allowed number (inclusive).
    ///   - max: The greatest allowed number (inclusive).
    ///   - exclusiveMin: The number must be greater.
    ///   - exclusiveMax: The number must be less.
    ///   - integral: The number must be whole.
    ///   - values: The allowed numbers (`enum`), compared numerically.
    ///   - message: Replaces the default messages.
    ///   - code: Replaces the default codes.
    public init(min: Double? = nil, max: Double? = nil, exclusiveMin: Double? = nil, exclusiveMax: Double? = nil,
                integral: Bool = false, enum values: [Double]? = nil,
                message: MessageTemplate? = nil, code: Int? = nil) {
        self.min = min
        self.max = max
        self.exclusiveMin = exclusiveMin
        self.exclusiveMax = exclusiveMax
        self.integral = integral
        self.allowedValues = values
        self.message = message
        self.code = code
    }

    var parameters: [String: String] {
        var p = ["type": "decimal", "typeName": "a number"]
        if let min { p["min"] = ValueText.canonical(min) }
        if let max { p["max"] = ValueText.canonical(max) }
        if let exclusiveMin { p["exclusiveMin"] = ValueText.canonical(exclusiveMin) }
        if let exclusiveMax { p["exclusiveMax"] = ValueText.canonical(exclusiveMax) }
        if let allowedValues { p["enum"] = allowedValues.map(ValueText.canonical).joined(separator: ", ") }
        return p
    }

    /// A violation of this validator; the parameters are built only for failures.
    private func make(_ kind: String, _ defaultCode: Int, _ template: MessageTemplate, _ value: Value,
                      _ extra: [String: String] = [:]) -> Violation {
        ViolationMaker(message: message, code: code, parameters: parameters).make(kind, defaultCode, template, value, extra)
    }

    public func validate(_ value: Value) -> [Violation] {
        guard let n = value.number, !n.isNaN else {
            return [make("type", ValidationCode.type, ValidatorMessages.type, value)]
        }
        var out = [Violation]()
        if let min, n < min { out.append(make("min", ValidationCode.tooSmall, ValidatorMessages.min, value)) }
        if let exclusiveMin, n <= exclusiveMin {
            out.append(make("exclusiveMin", ValidationCode.tooSmall, ValidatorMessages.exclusiveMin, value))
        }
        if let max, n > max { out.append(make("max", ValidationCode.tooLarge, ValidatorMessages.max, value)) }
        if let exclusiveMax, n >= exclusiveMax {
            out.append(make("exclusiveMax", ValidationCode.tooLarge, ValidatorMessages.exclusiveMax, value))
        }
        if integral, n != n.rounded() {
            out.append(make("integral", ValidationCode.integral, ValidatorMessages.integral, value))
        }
        if let allowedValues, !allowedValues.contains(n) {
            out.append(make("enum", ValidationCode.enum, ValidatorMessages.enum, value))
        }
        return out
    }

    public func isValid(_ value: Value) -> Bool {
        guard let n = value.number, !n.isNaN else { return false }
        if let min, n < min { return false }
        if let exclusiveMin, n <= exclusiveMin { return false }
        if let max, n > max { return false }
        if let exclusiveMax, n >= exclusiveMax { return false }
        if integral, n != n.rounded() { return false }
        return allowedValues?.contains(n) ?? true
    }

    public var summary: String {
        var parts = [String]()
        if let min { parts.append("be at least \(ValueText.canonical(min))") }
        if let exclusiveMin { parts.append("be greater than \(ValueText.canonical(exclusiveMin))") }
        if let max { parts.append("be at most \(ValueText.canonical(max))") }
        if let exclusiveMax { parts.append("be less than \(ValueText.canonical(exclusiveMax))") }
        if integral { parts.append("be a whole number") }
        if let allowedValues { parts.append("be one of \(allowedValues.map(ValueText.canonical).joined(separator: ", "))") }
        return parts.isEmpty ? "be a number" : parts.joined(separator: " and ")
    }
}
