/// Checks a value and reports every way it fails.
///
/// Validators are immutable values, built once and shared: the engine runs them on chunks
/// in parallel, so an implementation must be pure — the same value always gives the same
/// violations, in the same order — and must not touch shared mutable state (the `Sendable`
/// requirement enforces the second for stored properties; the first is a promise).
///
/// Validators compose: ``AllOf``, ``AnyOf``, ``OneOf`` and ``Not`` combine validators of the
/// same value; ``CollectionValidator`` and ``KeyedCollectionValidator`` apply validators to
/// the elements of lists and the entries of maps and move their violations to the element's
/// path (`[2]`, `.city`).
public protocol Validator: Sendable {
    /// Checks a value.
    /// - Parameter value: The value to check.
    /// - Returns: Every violation, in a deterministic order; empty when the value is valid.
    ///   A validator never stops at the first failure.
    func validate(_ value: Value) -> [Violation]

    /// Whether the value passes: the same answer as `validate(value).isEmpty`, without
    /// building messages (the engine counts with it and renders only the samples it keeps).
    /// The default calls ``validate(_:)``; built-in validators answer directly.
    func isValid(_ value: Value) -> Bool

    /// What the validator requires, as a verb phrase that follows "must": `be at least 0`,
    /// `match the pattern [0-9]+`. ``Not`` quotes it. The default is `satisfy a custom constraint`.
    var summary: String { get }
}

extension Validator {
    public var summary: String { "satisfy a custom constraint" }

    public func isValid(_ value: Value) -> Bool { validate(value).isEmpty }

    /// This validator, but `.null` passes (TWTValidation's `allowsNull`).
    public func allowingNull() -> NullableValidator { NullableValidator(self) }
}

/// The codes of validator violations: Core Data's validation codes where one fits
/// (NSValidation…Error), ours (2xxx) otherwise. The rule compiler's `defaultCode` uses the
/// same numbers for the same constraints; ``FindingCode`` lists every code.
public enum ValidationCode {
    /// NSManagedObjectValidationError: a generic failure (block and record validators).
    public static let generic = FindingCode.generic.rawValue
    /// NSValidationMissingMandatoryPropertyError: required, `requiredKeys`, `NotNull`.
    public static let required = FindingCode.required.rawValue
    /// NSValidationRelationshipLacksMinimumCountError: `minCount`.
    public static let minCount = FindingCode.minCount.rawValue
    /// NSValidationRelationshipExceedsMaximumCountError: `maxCount`.
    public static let maxCount = FindingCode.maxCount.rawValue
    /// NSValidationNumberTooLargeError: `max`, `exclusiveMax`.
    public static let tooLarge = FindingCode.numberTooLarge.rawValue
    /// NSValidationNumberTooSmallError: `min`, `exclusiveMin`.
    public static let tooSmall = FindingCode.numberTooSmall.rawValue
    /// NSValidationStringTooLongError: `maxLength`.
    public static let tooLong = FindingCode.tooLong.rawValue
    /// NSValidationStringTooShortError: `minLength`.
    public static let tooShort = FindingCode.tooShort.rawValue
    /// NSValidationStringPatternMatchingError: `pattern`.
    public static let pattern = FindingCode.pattern.rawValue
    /// Not of the expected type (not a number, not a list...).
    public static let type = FindingCode.type.rawValue
    /// Not one of the allowed values.
    public static let `enum` = FindingCode.`enum`.rawValue
    /// Not a whole number.
    public static let integral = FindingCode.integral.rawValue
    /// Not null where null is required (``NullValidator``).
    public static let null = FindingCode.null.rawValue
    /// A list repeats an item (`uniqueItems`).
    public static let uniqueItems = FindingCode.uniqueItems.rawValue
    /// A map has a key that is not allowed (`allowedKeys`).
    public static let unknownKey = FindingCode.unknownKey.rawValue
    /// No alternative of `anyOf` holds.
    public static let anyOf = FindingCode.anyOf.rawValue
    /// Not exactly one alternative of `oneOf` holds.
    public static let oneOf = FindingCode.oneOf.rawValue
    /// The constraint under `not` holds.
    public static let not = FindingCode.not.rawValue
    /// NSValidationMultipleErrorsError: a record group with more than one finding.
    public static let multipleErrors = FindingCode.multipleErrors.rawValue
}

/// The default message templates of validators; the wording of constraints the rule compiler
/// also knows is its own (``ConstraintKind/defaultMessage(for:)``).
enum ValidatorMessages {
    static let type = template(ConstraintKind.type.defaultMessage(for: .string))
    static let required = template(ConstraintKind.required.defaultMessage(for: .string))
    static let empty = template("{field} is required but empty.")
    static let null = template("{field} must be null; got '{value}'.")
    static let notNull = template("{field} must not be null.")
    static let min = template(ConstraintKind.min.defaultMessage(for: .decimal))
    static let max = template(ConstraintKind.max.defaultMessage(for: .decimal))
    static let exclusiveMin = template(ConstraintKind.exclusiveMin.defaultMessage(for: .decimal))
    static let exclusiveMax = template(ConstraintKind.exclusiveMax.defaultMessage(for: .decimal))
    static let integral = template(ConstraintKind.integral.defaultMessage(for: .decimal))
    static let minLength = template(ConstraintKind.minLength.defaultMessage(for: .string))
    static let maxLength = template(ConstraintKind.maxLength.defaultMessage(for: .string))
    static let pattern = template(ConstraintKind.pattern.defaultMessage(for: .string))
    static let `enum` = template(ConstraintKind.enum.defaultMessage(for: .string))
    static let anyOf = template("{field} must satisfy at least one alternative: {alternatives}")
    static let oneOfNone = template("{field} must satisfy exactly one alternative but satisfies none: {alternatives}")
    static let oneOfMany = template("{field} must satisfy exactly one alternative but satisfies alternatives {matched}; got '{value}'.")
    static let not = template("{field} must not {summary}; got '{value}'.")
    static let minCount = template("{field} must have {minCount} or more items; got {count}.")
    static let maxCount = template("{field} must have {maxCount} or fewer items; got {count}.")
    static let minEntries = template("{field} must have {minCount} or more entries; got {count}.")
    static let maxEntries = template("{field} must have {maxCount} or fewer entries; got {count}.")
    static let uniqueItems = template("{field} must be unique in the list; '{value}' already appears at [{first}].")
    static let unknownKey = template("{field} is not an allowed key; allowed keys: {allowedKeys}.")
    static let block = template("{field} is invalid; got '{value}'.")

    /// Parses a built-in template. The templates above are literals without stray braces;
    /// should one ever be malformed, its text is shown as is rather than trapping.
    static func template(_ text: String) -> MessageTemplate {
        MessageTemplate(literal: text)
    }
}

extension MessageTemplate: ExpressibleByStringLiteral {
    /// A template from a literal: `message: "{field} must be even; got {value}."`.
    /// A malformed literal (an unclosed `{`) is kept as plain text instead of failing; use
    /// ``init(_:)`` to be told about the mistake.
    public init(stringLiteral value: String) {
        self.init(literal: value)
    }

    /// A template, or plain text when `text` is not a valid template.
    init(literal text: String) {
        if let t = try? MessageTemplate(text) {
            self = t
            return
        }
        var escaped = ""
        for c in text {
            escaped.append(c)
            if c == "{" || c == "}" { escaped.append(c) }
        }
        // Every brace of `escaped` is doubled, and a doubled brace always parses.
        self = try! MessageTemplate(escaped)
    }
}

/// Builds a validator's violations: the default template and code unless the validator
/// overrides them, the value and the constraint parameters in every violation.
struct ViolationMaker {
    var message: MessageTemplate?
    var code: Int?
    var parameters: [String: String]

    func make(_ kind: String, _ defaultCode: Int, _ template: MessageTemplate, _ value: Value,
              _ extra: [String: String] = [:], path: String = "", causes: [Violation] = []) -> Violation {
        var p = parameters
        p["value"] = value.description
        for (k, v) in extra { p[k] = v }
        return Violation(kind: kind, code: code ?? defaultCode, template: message ?? template, path: path,
                         parameters: p, causes: causes)
    }
}
