/// One way a value fails a validator: what (kind, code), where inside the value (path) and
/// why (a rendered message, and the parameters it was rendered from).
///
/// A violation built from a ``MessageTemplate`` keeps it, so that a validator that nests
/// another (a collection over its elements, a map over its keys) can move the violation to
/// its element's path and have the message follow: `{field}` renders as the field name
/// followed by the path (`value[2]`, `address.city`). Compound validators keep the
/// violations of their alternatives as ``causes`` (TWTValidation's underlying errors).
public struct Violation: Sendable, Equatable {
    /// A stable number: Core Data's validation codes where one fits (1570 required, 1610
    /// too large...), ours otherwise (``ValidationCode``).
    public var code: Int
    /// The message, rendered from the template with the parameters, field name and path.
    public private(set) var message: String
    /// Where inside the validated value: `""` for the value itself, `[2]` for a list
    /// element, `.city` for a map entry, composed (`.phones[2]`).
    public private(set) var path: String
    /// The name that stands for the validated value in messages: `value` unless renamed
    /// with ``named(_:)`` (the engine uses the attribute name).
    public private(set) var field: String
    /// The constraint that failed: `minLength`, `pattern`, `anyOf`... or a block's own kind.
    public var kind: String
    /// The constraint's parameters and the offending value (`value`, `minLength`, `length`...).
    public var parameters: [String: String]
    /// The violations behind a compound one: the failures of each alternative of `anyOf`
    /// and `oneOf`, each tagged with its 1-based `alternative` parameter.
    public private(set) var causes: [Violation]
    /// The template `message` is rendered from; `nil` for a violation built from a fixed message.
    public let template: MessageTemplate?

    /// A violation with a fixed message (moving it to another path keeps the message).
    /// - Parameters:
    ///   - kind: The constraint that failed.
    ///   - code: Its code (``ValidationCode/generic`` for a generic failure).
    ///   - message: The message as it should be shown.
    ///   - path: Where inside the value; `""` for the value itself.
    ///   - parameters: Values for reports and templates.
    ///   - causes: Underlying violations.
    public init(kind: String, code: Int, message: String, path: String = "",
                parameters: [String: String] = [:], causes: [Violation] = []) {
        self.kind = kind
        self.code = code
        self.message = message
        self.path = path
        self.field = "value"
        self.parameters = parameters
        self.causes = causes
        self.template = nil
    }

    /// A violation whose message is rendered from a template.
    ///
    /// Placeholders: `{field}` (field name and path), `{path}`, `{alternatives}` (the causes'
    /// messages, numbered by alternative), and every key of `parameters`. An unknown name is
    /// left as `{name}`.
    public init(kind: String, code: Int, template: MessageTemplate, path: String = "",
                parameters: [String: String] = [:], causes: [Violation] = []) {
        self.kind = kind
        self.code = code
        self.message = ""
        self.path = path
        self.field = "value"
        self.parameters = parameters
        self.causes = causes
        self.template = template
        render()
    }

    /// The field name and path as messages show them: `value`, `value[2]`, `address.city`.
    public var location: String { field + path }

    /// This violation moved under a parent's path segment: `[2]` for element 2 of a list,
    /// `.city` for a map entry. Causes move with it and the message is rendered again.
    /// - Parameter segment: The parent's segment, prepended to ``path``.
    public func nested(under segment: String) -> Violation {
        var v = self
        v.path = segment + path
        v.causes = causes.map { $0.nested(under: segment) }
        v.render()
        return v
    }

    /// This violation with `field` standing for the validated value in messages (an
    /// attribute name: `phones[2] must match...`). Causes are renamed too.
    public func named(_ field: String) -> Violation {
        var v = self
        v.field = field
        v.causes = causes.map { $0.named(field) }
        v.render()
        return v
    }

    /// Renders `message` again from the template (no-op for fixed messages).
    private mutating func render() {
        guard let template else { return }
        let location = self.location
        let path = self.path
        let causes = self.causes
        let parameters = self.parameters
        message = template.render { name in
            switch name {
            case "field": return location
            case "path": return path
            case "alternatives": return Self.numbered(causes)
            default: return parameters[name]
            }
        }
    }

    /// `1) message message 2) message`, grouping causes by their `alternative` parameter.
    static func numbered(_ causes: [Violation]) -> String {
        var groups = [(String, [String])]()
        for c in causes {
            let n = c.parameters["alternative"] ?? ""
            if let i = groups.firstIndex(where: { $0.0 == n }) {
                groups[i].1.append(c.message)
            } else {
                groups.append((n, [c.message]))
            }
        }
        return groups.map { n, messages in
            (n.isEmpty ? "" : "\(n)) ") + messages.joined(separator: " ")
        }.joined(separator: " ")
    }
}

extension Violation: CustomStringConvertible {
    /// `[code kind] message`, for logs and tests.
    public var description: String { "[\(code) \(kind)] \(message)" }
}
