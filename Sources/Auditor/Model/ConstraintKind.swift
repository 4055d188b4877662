/// The constraint kinds of a property rule.
package enum ConstraintKind: String, Sendable, CaseIterable {
    case required
    /// `allowsNull: false`: an explicit null is a violation (an absent value is not).
    case allowsNull
    /// `allowsMissing: false`: an absent value is a violation (an explicit null is not).
    case allowsMissing
    case type
    case min
    case max
    case exclusiveMin
    case exclusiveMax
    case minLength
    case maxLength
    case pattern
    case `enum`
    case integral
    case unique
    // Compound, list and map constraints (TWTValidation's vocabulary), compiled to validators.
    case allOf, anyOf, oneOf, not
    case minCount, maxCount, each, uniqueItems
    case keys, requiredKeys, allowedKeys
    /// Map constraints on every key name, every value, and entries whose key matches a pattern.
    case eachKey, eachValue, pairs
    // Lifecycle constraints, checked on records updated since the previous snapshot.
    case immutable, transitions
}

extension ConstraintKind {
    /// The built-in message of a constraint kind.
    public func defaultMessage(for type: ValueType) -> String {
        let isDate = type == .date || type == .datetime
        switch self {
        case .required: return "{field} is required but missing."
        case .allowsNull: return "{field} must not be null."
        case .allowsMissing: return "{field} must be present (it may be null); it is missing."
        case .type: return "{field} must be {typeName}; got '{value}'."
        case .min: return isDate ? "{field} must be on or after {min}; got {value}." : "{field} must be at least {min}; got {value}."
        case .exclusiveMin: return isDate ? "{field} must be after {exclusiveMin}; got {value}." : "{field} must be greater than {exclusiveMin}; got {value}."
        case .max: return isDate ? "{field} must be on or before {max}; got {value}." : "{field} must be at most {max}; got {value}."
        case .exclusiveMax: return isDate ? "{field} must be before {exclusiveMax}; got {value}." : "{field} must be less than {exclusiveMax}; got {value}."
        case .minLength: return "{field} must have at least {minLength, plural, one {# character} other {# characters}}; '{value}' has {length}."
        case .maxLength: return "{field} must have at most {maxLength, plural, one {# character} other {# characters}}; got {length}."
        case .pattern: return "{field} must match the pattern {pattern}; got '{value}'."
        case .enum: return "{field} must be one of {enum}; got '{value}'."
        case .integral: return "{field} must be a whole number; got {value}."
        case .unique: return "{field} must be unique; '{value}' already appears at {first}."
        case .allOf, .anyOf, .oneOf, .not, .minCount, .maxCount, .each, .uniqueItems, .keys, .requiredKeys, .allowedKeys,
             .eachKey, .eachValue, .pairs:
            return "{field} is invalid: {violations}"
        case .immutable: return "{field} cannot change once set; it changed from '{old}' to '{value}'."
        case .transitions: return "{field} cannot change from '{old}' to '{value}'; allowed: {transitions}."
        }
    }

    /// Core Data's validation codes where one fits; ours (2xxx) otherwise (``FindingCode``).
    public func defaultCode(for type: ValueType) -> Int {
        defaultFindingCode(for: type).rawValue
    }

    /// The code of a constraint kind on an attribute of a type: each constraint its own.
    public func defaultFindingCode(for type: ValueType) -> FindingCode {
        let isDate = type == .date || type == .datetime
        switch self {
        case .required: return .required
        case .allowsNull: return .nullNotAllowed
        case .allowsMissing: return .missingNotAllowed
        case .type: return isDate ? .invalidDate : .type
        case .min, .exclusiveMin: return isDate ? .dateTooSoon : .numberTooSmall
        case .max, .exclusiveMax: return isDate ? .dateTooLate : .numberTooLarge
        case .minLength: return .tooShort
        case .maxLength: return .tooLong
        case .pattern: return .pattern
        case .enum: return .enum
        case .integral: return .integral
        case .unique: return .unique
        case .minCount: return .minCount
        case .maxCount: return .maxCount
        case .uniqueItems: return .uniqueItems
        case .requiredKeys: return .required
        case .allowedKeys: return .unknownKey
        case .keys, .allOf, .each, .eachKey, .eachValue, .pairs: return .part
        case .anyOf: return .anyOf
        case .oneOf: return .oneOf
        case .not: return .not
        case .immutable: return .immutable
        case .transitions: return .transitions
        }
    }
}
