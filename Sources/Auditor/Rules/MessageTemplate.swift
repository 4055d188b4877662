import Foundation

/// A message with `{name}` placeholders, parsed once (`{{` and `}}` write literal braces).
public struct MessageTemplate: Sendable, Equatable {
    enum Part: Sendable, Equatable {
        case text(String)
        case placeholder(String)
    }

    let parts: [Part]
    /// The template as written.
    public let source: String

    /// Parses a template.
    /// - Throws: A message (without location) for an unclosed `{`.
    public init(_ source: String) throws(TemplateError) {
        self.source = source
        var parts = [Part]()
        var text = ""
        var i = source.startIndex
        while i < source.endIndex {
            let c = source[i]
            let next = source.index(after: i)
            if c == "{" {
                if next < source.endIndex, source[next] == "{" {
                    text.append("{")
                    i = source.index(after: next)
                    continue
                }
                guard let close = source[next...].firstIndex(of: "}") else {
                    throw TemplateError(message: "unclosed '{' in message template; write '{{' for a literal brace")
                }
                if !text.isEmpty { parts.append(.text(text)) }
                text = ""
                parts.append(.placeholder(String(source[next ..< close]).trimmingCharacters(in: .whitespaces)))
                i = source.index(after: close)
                continue
            }
            if c == "}", next < source.endIndex, source[next] == "}" {
                text.append("}")
                i = source.index(after: next)
                continue
            }
            text.append(c)
            i = next
        }
        if !text.isEmpty { parts.append(.text(text)) }
        self.parts = parts
    }

    /// The placeholder names used.
    public var placeholders: [String] {
        parts.compactMap { if case .placeholder(let p) = $0 { return p } else { return nil } }
    }

    /// Substitutes parameters; an unknown name is left as `{name}`.
    public func render(_ lookup: (String) -> String?) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .text(let t): out += t
            case .placeholder(let p): out += lookup(p) ?? "{\(p)}"
            }
        }
        return out
    }

    public struct TemplateError: Error, Sendable {
        public var message: String
    }
}

