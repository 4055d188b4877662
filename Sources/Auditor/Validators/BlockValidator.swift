/// A validator written as a closure (TWTValidation's `TWTBlockValidator`), for checks the
/// built-in validators do not express.
///
/// The closure runs on the engine's worker threads, possibly on several chunks at once: it
/// must be `@Sendable` and pure (capture constants only; no shared caches, counters or I/O).
///
/// ```swift
/// let even = BlockValidator(kind: "even", message: "{field} must be even; got {value}.") { value in
///     if case .integer(let i)? = value.converted(to: .integer) { return i % 2 == 0 }
///     return false
/// }
/// let custom = BlockValidator { value in
///     value.description.hasPrefix("x") ? [] : [Violation(kind: "prefix", code: 1550, message: "must start with x")]
/// }
/// ```
public struct BlockValidator: Validator {
    private let body: @Sendable (Value) -> [Violation]
    /// The Bool form's test, answering ``isValid(_:)`` without building a violation.
    private let test: (@Sendable (Value) -> Bool)?
    private let phrase: String

    /// A validator whose closure returns the violations itself (build them with
    /// ``Violation/init(kind:code:template:path:parameters:causes:)`` to have their
    /// messages follow the path when nested).
    /// - Parameters:
    ///   - summary: What the closure requires, after "must" (for ``Not`` and docs).
    ///   - body: The check; returns every violation, empty when the value is valid.
    public init(summary: String = "satisfy a custom constraint", _ body: @escaping @Sendable (Value) -> [Violation]) {
        self.body = body
        self.test = nil
        self.phrase = summary
    }

    /// A validator whose closure says whether the value is valid; a failure is one violation
    /// rendered from `message` (`{field}`, `{value}`, `{path}` and `parameters`).
    /// - Parameters:
    ///   - kind: The violation's kind.
    ///   - code: The violation's code; 1550 (NSManagedObjectValidationError) by default.
    ///   - message: The message template; `{field} is invalid; got '{value}'.` by default.
    ///   - parameters: Extra template parameters.
    ///   - summary: What the closure requires, after "must".
    ///   - test: Returns `true` for a valid value.
    public init(kind: String = "block", code: Int = ValidationCode.generic,
                message: MessageTemplate? = nil, parameters: [String: String] = [:],
                summary: String = "satisfy a custom constraint", test: @escaping @Sendable (Value) -> Bool) {
        let maker = ViolationMaker(message: message, code: code, parameters: parameters)
        self.body = { value in
            test(value) ? [] : [maker.make(kind, code, ValidatorMessages.block, value)]
        }
        self.test = test
        self.phrase = summary
    }

    public func validate(_ value: Value) -> [Violation] { body(value) }

    public func isValid(_ value: Value) -> Bool { test?(value) ?? body(value).isEmpty }

    public var summary: String { phrase }
}
