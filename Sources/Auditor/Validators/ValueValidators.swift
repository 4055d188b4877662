/// The value must be readable as a declared type (TWTValidation's value class check).
///
/// A `.string` is parsed strictly when the type is not `string` (``Value/converted(to:)``
/// gives the rules: `"12"` is an integer, `"12.0"` is not; `"2020-02-30"` is not a date).
/// `.null`, lists and maps are of no scalar type and fail.
///
/// Code 2001 (1650 for dates and date-times), kind `type`; parameters `type`, `typeName`.
public struct TypeValidator: Validator {
    public var type: ValueType
    /// Replaces the default message; placeholders as in ``Violation/init(kind:code:template:path:parameters:causes:)``.
    public var message: MessageTemplate?
    /// Replaces the default code.
    public var code: Int?

    public init(_ type: ValueType, message: MessageTemplate? = nil, code: Int? = nil) {
        self.type = type
        self.message = message
        self.code = code
    }

    public func validate(_ value: Value) -> [Violation] {
        guard value.converted(to: type) == nil else { return [] }
        let maker = ViolationMaker(message: message, code: code,
                                   parameters: ["type": type.rawValue, "typeName": type.phrase])
        return [maker.make("type", ConstraintKind.type.defaultCode(for: type), ValidatorMessages.type, value)]
    }

    public func isValid(_ value: Value) -> Bool { value.converted(to: type) != nil }

    public var summary: String { "be \(type.phrase)" }
}

/// The value must be present: not `.null` and, unless ``allowsEmpty``, not empty (an empty
/// string, list or map). Core Data's non-optional attribute.
///
/// Code 1570, kind `required`; the message says "missing" for null and "empty" for empty.
public struct RequiredValidator: Validator {
    /// Whether an empty string, list or map counts as present. `false` by default, as a
    /// CSV reader reads an empty field as missing.
    public var allowsEmpty: Bool
    public var message: MessageTemplate?
    public var code: Int?

    public init(allowsEmpty: Bool = false, message: MessageTemplate? = nil, code: Int? = nil) {
        self.allowsEmpty = allowsEmpty
        self.message = message
        self.code = code
    }

    public func validate(_ value: Value) -> [Violation] {
        let maker = ViolationMaker(message: message, code: code, parameters: [:])
        if value.isNull {
            return [maker.make("required", ValidationCode.required, ValidatorMessages.required, value)]
        }
        if !allowsEmpty, value.isEmpty {
            return [maker.make("required", ValidationCode.required, ValidatorMessages.empty, value)]
        }
        return []
    }

    public func isValid(_ value: Value) -> Bool { !value.isNull && (allowsEmpty || !value.isEmpty) }

    public var summary: String { allowsEmpty ? "be present" : "be present and not empty" }
}

/// The value must be `.null` (for alternatives: `AnyOf([NullValidator(), NumberValidator(min: 0)])`).
///
/// Code 2004, kind `null`.
public struct NullValidator: Validator {
    public var message: MessageTemplate?
    public var code: Int?

    public init(message: MessageTemplate? = nil, code: Int? = nil) {
        self.message = message
        self.code = code
    }

    public func validate(_ value: Value) -> [Violation] {
        guard !value.isNull else { return [] }
        return [ViolationMaker(message: message, code: code, parameters: [:])
            .make("null", ValidationCode.null, ValidatorMessages.null, value)]
    }

    public func isValid(_ value: Value) -> Bool { value.isNull }

    public var summary: String { "be null" }
}

/// The value must not be `.null`; empty values pass (``RequiredValidator`` rejects them too).
///
/// Code 1570, kind `notNull`.
public struct NotNull: Validator {
    public var message: MessageTemplate?
    public var code: Int?

    public init(message: MessageTemplate? = nil, code: Int? = nil) {
        self.message = message
        self.code = code
    }

    public func validate(_ value: Value) -> [Violation] {
        guard value.isNull else { return [] }
        return [ViolationMaker(message: message, code: code, parameters: [:])
            .make("notNull", ValidationCode.required, ValidatorMessages.notNull, value)]
    }

    public func isValid(_ value: Value) -> Bool { !value.isNull }

    public var summary: String { "not be null" }
}

/// Another validator, except that `.null` passes: `NumberValidator(min: 0).allowingNull()`.
///
/// Every other validator that expects a type (numbers, text, lists, maps) fails on `.null`
/// with a type violation, so that `oneOf` and `not` stay exact; wrap it to make null acceptable.
public struct NullableValidator: Validator {
    public var wrapped: any Validator

    public init(_ wrapped: any Validator) {
        self.wrapped = wrapped
    }

    public func validate(_ value: Value) -> [Violation] {
        value.isNull ? [] : wrapped.validate(value)
    }

    public func isValid(_ value: Value) -> Bool { value.isNull || wrapped.isValid(value) }

    public var summary: String { "be null or \(wrapped.summary)" }
}

/// A type check guarding other checks: a value that is not of the type gets only the type
/// violation, and the other checks run only on values of the type (as the engine skips
/// type-invalid values in value constraints). `AllOf([TypeValidator(.integer), NumberValidator(min: 0)])`
/// reports `"abc"` twice (not an integer, not a number); `TypedValidator(.integer, then: NumberValidator(min: 0))` once.
public struct TypedValidator: Validator {
    public var type: TypeValidator
    public var then: any Validator

    /// - Parameters:
    ///   - type: The type the value must have (its violation as ``TypeValidator``'s).
    ///   - then: The checks of values of the type.
    public init(_ type: ValueType, then: any Validator) {
        self.type = TypeValidator(type)
        self.then = then
    }

    public func validate(_ value: Value) -> [Violation] {
        let found = type.validate(value)
        return found.isEmpty ? then.validate(value) : found
    }

    public func isValid(_ value: Value) -> Bool { type.isValid(value) && then.isValid(value) }

    public var summary: String { "\(type.summary) and \(then.summary)" }
}
