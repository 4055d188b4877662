/// Every validator must pass (TWTValidation's `andValidatorWithSubvalidators:`). The
/// violations are those of all the validators, in order: `AllOf` adds none of its own.
public struct AllOf: Validator {
    public var validators: [any Validator]

    public init(_ validators: [any Validator]) {
        self.validators = validators
    }

    public func validate(_ value: Value) -> [Violation] {
        validators.flatMap { $0.validate(value) }
    }

    public func isValid(_ value: Value) -> Bool { validators.allSatisfy { $0.isValid(value) } }

    public var summary: String {
        validators.isEmpty ? "be anything" : validators.map(\.summary).joined(separator: " and ")
    }
}

/// At least one validator must pass (`or`). When none does, one violation (kind `anyOf`,
/// code 2010) whose message lists the alternatives' messages, numbered, and whose
/// ``Violation/causes`` hold them (each with its `alternative` parameter, 1-based).
public struct AnyOf: Validator {
    public var validators: [any Validator]
    public var message: MessageTemplate?
    public var code: Int?

    public init(_ validators: [any Validator], message: MessageTemplate? = nil, code: Int? = nil) {
        self.validators = validators
        self.message = message
        self.code = code
    }

    public func validate(_ value: Value) -> [Violation] {
        var causes = [Violation]()
        for (i, v) in validators.enumerated() {
            let found = v.validate(value)
            if found.isEmpty { return [] }
            causes += Alternatives.tag(found, i)
        }
        return [ViolationMaker(message: message, code: code, parameters: [:])
            .make("anyOf", ValidationCode.anyOf, ValidatorMessages.anyOf, value, causes: causes)]
    }

    public func isValid(_ value: Value) -> Bool { validators.contains { $0.isValid(value) } }

    public var summary: String {
        "satisfy at least one of: " + validators.map(\.summary).joined(separator: "; ")
    }
}

/// Exactly one validator must pass (`xor` generalised). When none passes, one violation
/// listing the alternatives' messages (as ``AnyOf``); when several pass, one violation
/// naming them (`matched`: `1 and 3`). Kind `oneOf`, code 2011.
public struct OneOf: Validator {
    public var validators: [any Validator]
    public var message: MessageTemplate?
    public var code: Int?

    public init(_ validators: [any Validator], message: MessageTemplate? = nil, code: Int? = nil) {
        self.validators = validators
        self.message = message
        self.code = code
    }

    public func validate(_ value: Value) -> [Violation] {
        var causes = [Violation]()
        var passed = [Int]()
        for (i, v) in validators.enumerated() {
            let found = v.validate(value)
            if found.isEmpty { passed.append(i + 1) } else { causes += Alternatives.tag(found, i) }
        }
        if passed.count == 1 { return [] }
        let maker = ViolationMaker(message: message, code: code, parameters: [:])
        if passed.isEmpty {
            return [maker.make("oneOf", ValidationCode.oneOf, ValidatorMessages.oneOfNone, value, causes: causes)]
        }
        return [maker.make("oneOf", ValidationCode.oneOf, ValidatorMessages.oneOfMany, value,
                           ["matched": Alternatives.list(passed)])]
    }

    public func isValid(_ value: Value) -> Bool {
        var passed = 0
        for v in validators where v.isValid(value) {
            passed += 1
            if passed > 1 { return false }
        }
        return passed == 1
    }

    public var summary: String {
        "satisfy exactly one of: " + validators.map(\.summary).joined(separator: "; ")
    }
}

/// The validator must fail (`not`). When it passes, one violation (kind `not`, code 2012)
/// that quotes its ``Validator/summary``: `value must not be one of x, y; got 'x'.`
public struct Not: Validator {
    public var validator: any Validator
    public var message: MessageTemplate?
    public var code: Int?

    public init(_ validator: any Validator, message: MessageTemplate? = nil, code: Int? = nil) {
        self.validator = validator
        self.message = message
        self.code = code
    }

    public func validate(_ value: Value) -> [Violation] {
        guard validator.validate(value).isEmpty else { return [] }
        return [ViolationMaker(message: message, code: code, parameters: ["summary": validator.summary])
            .make("not", ValidationCode.not, ValidatorMessages.not, value)]
    }

    public func isValid(_ value: Value) -> Bool { !validator.isValid(value) }

    public var summary: String { "not \(validator.summary)" }
}

enum Alternatives {
    /// The violations of alternative `index` (0-based), tagged `alternative: index + 1`.
    static func tag(_ violations: [Violation], _ index: Int) -> [Violation] {
        violations.map {
            var v = $0
            v.parameters["alternative"] = String(index + 1)
            return v
        }
    }

    /// `1`, `1 and 3`, `1, 2 and 3`.
    static func list(_ numbers: [Int]) -> String {
        let texts = numbers.map(String.init)
        guard texts.count > 1, let last = texts.last else { return texts.first ?? "" }
        return texts.dropLast().joined(separator: ", ") + " and " + last
    }
}
