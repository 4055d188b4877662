/// Length, pattern and allowed values of text (TWTValidation's `TWTStringValidator`).
///
/// Reads any scalar as text: `.string` as is, typed scalars in canonical form (`12`,
/// `2020-01-31`), as the engine reads a typed cell of a text attribute. `.null`, lists and
/// maps are one `type` violation (2001, "must be text") and no other check runs. Otherwise
/// every failing check is reported.
///
/// | check | kind | code | parameters |
/// | --- | --- | --- | --- |
/// | `minLength` | `minLength` | 1670 | `minLength`, `length` |
/// | `maxLength` | `maxLength` | 1660 | `maxLength`, `length` |
/// | `pattern` (a full match, ``Pattern``) | `pattern` | 1680 | `pattern` |
/// | `enum` (exact, case-sensitive) | `enum` | 2002 | `enum` (`a, b`) |
///
/// Lengths count Unicode scalars (`é` written as one scalar is 1, as `e` + U+0301 is 2),
/// like the engine's `minLength`.
public struct StringValidator: Validator {
    public var minLength: Int?
    public var maxLength: Int?
    public var pattern: Pattern?
    /// The allowed texts, or `nil` for any.
    public var allowedValues: [String]?
    public var message: MessageTemplate?
    public var code: Int?

    /// - Parameters:
    ///   - minLength: The least number of Unicode scalars.
    ///   - maxLength: The greatest number of Unicode scalars.
    ///   - pattern: A compiled pattern the whole text must match: `try Pattern("[0-9]{5}")`.
    ///   - values: The allowed texts (`enum`).
    ///   - message: Replaces the default messages.
    ///   - code: Replaces the default codes.
    public init(minLength: Int? = nil, maxLength: Int? = nil, pattern: Pattern? = nil, enum values: [String]? = nil,
                message: MessageTemplate? = nil, code: Int? = nil) {
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.allowedValues = values
        self.message = message
        self.code = code
    }

    var parameters: [String: String] {
        var p = ["type": "string", "typeName": ValueType.string.phrase]
        if let minLength { p["minLength"] = String(minLength) }
        if let maxLength { p["maxLength"] = String(maxLength) }
        if let pattern { p["pattern"] = pattern.source }
        if let allowedValues { p["enum"] = allowedValues.joined(separator: ", ") }
        return p
    }

    /// A violation of this validator; the parameters are built only for failures.
    private func make(_ kind: String, _ defaultCode: Int, _ template: MessageTemplate, _ value: Value,
                      _ extra: [String: String] = [:]) -> Violation {
        ViolationMaker(message: message, code: code, parameters: parameters).make(kind, defaultCode, template, value, extra)
    }

    public func validate(_ value: Value) -> [Violation] {
        guard case .string(let text)? = value.converted(to: .string) else {
            return [make("type", ValidationCode.type, ValidatorMessages.type, value)]
        }
        var out = [Violation]()
        if minLength != nil || maxLength != nil {
            let length = text.unicodeScalars.count
            if let minLength, length < minLength {
                out.append(make("minLength", ValidationCode.tooShort, ValidatorMessages.minLength, value,
                                ["length": String(length)]))
            }
            if let maxLength, length > maxLength {
                out.append(make("maxLength", ValidationCode.tooLong, ValidatorMessages.maxLength, value,
                                ["length": String(length)]))
            }
        }
        if let pattern, !pattern.matches(text) {
            out.append(make("pattern", ValidationCode.pattern, ValidatorMessages.pattern, value))
        }
        if let allowedValues, !allowedValues.contains(text) {
            out.append(make("enum", ValidationCode.enum, ValidatorMessages.enum, value))
        }
        return out
    }

    public func isValid(_ value: Value) -> Bool {
        guard case .string(let text)? = value.converted(to: .string) else { return false }
        if minLength != nil || maxLength != nil {
            let length = text.unicodeScalars.count
            if let minLength, length < minLength { return false }
            if let maxLength, length > maxLength { return false }
        }
        if let pattern, !pattern.matches(text) { return false }
        return allowedValues?.contains(text) ?? true
    }

    public var summary: String {
        var parts = [String]()
        if let minLength { parts.append("have at least \(minLength) character\(minLength == 1 ? "" : "s")") }
        if let maxLength { parts.append("have at most \(maxLength) character\(maxLength == 1 ? "" : "s")") }
        if let pattern { parts.append("match the pattern \(pattern.source)") }
        if let allowedValues { parts.append("be one of \(allowedValues.joined(separator: ", "))") }
        return parts.isEmpty ? "be text" : parts.joined(separator: " and ")
    }
}
