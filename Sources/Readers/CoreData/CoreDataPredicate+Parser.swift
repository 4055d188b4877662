import Auditor
import Foundation

extension CoreDataPredicate {
    /// A recursive-descent parser that writes the expression as it goes.
    struct Parser {
        var tokens: [Token]
        var attributes: [String: Kind]
        var position = 0

        typealias Failure = CoreDataPredicate.Unsupported

        var peek: Token? { position < tokens.count ? tokens[position] : nil }
        func isWord(_ t: Token?, _ words: String...) -> Bool {
            guard let t, t.kind == .word || t.kind == .symbol else { return false }
            return words.contains(t.text.uppercased())
        }
        mutating func next() throws(Failure) -> Token {
            guard let t = peek else { throw Failure(description: "the predicate ends too early") }
            position += 1
            return t
        }

        mutating func or() throws(Failure) -> String {
            var left = try and()
            while isWord(peek, "OR", "||") { position += 1; left = "(\(left) or \(try and()))" }
            return left
        }

        mutating func and() throws(Failure) -> String {
            var left = try not()
            while isWord(peek, "AND", "&&") { position += 1; left = "(\(left) and \(try not()))" }
            return left
        }

        mutating func not() throws(Failure) -> String {
            if isWord(peek, "NOT", "!") { position += 1; return "!(\(try not()))" }
            if peek?.text == "(" {
                position += 1
                let inner = try or()
                guard try next().text == ")" else { throw Failure(description: "a missing ')'") }
                return inner
            }
            return try comparison()
        }

        enum Operand { case attribute(String, Kind), number(String), string(String), boolean(Bool), null, list([Operand]), date(String) }

        mutating func operand() throws(Failure) -> Operand {
            let t = try next()
            switch t.kind {
            case .number: return .number(t.text)
            case .string: return .string(t.text)
            case .symbol:
                guard t.text == "{" else { throw Failure(description: "unexpected '\(t.text)'") }
                var items = [Operand]()
                while peek?.text != "}" {
                    items.append(try operand())
                    if peek?.text == "," { position += 1 }
                }
                position += 1
                return .list(items)
            case .word:
                switch t.text.uppercased() {
                case "YES", "TRUE": return .boolean(true)
                case "NO", "FALSE": return .boolean(false)
                case "NIL", "NULL": return .null
                case "CAST":
                    guard try next().text == "(" else { throw Failure(description: "CAST without '('") }
                    let n = try next()
                    guard n.kind == .number, try next().text == ",", try next().text == "NSDate", try next().text == ")",
                          let seconds = Double(n.text) else {
                        throw Failure(description: "CAST other than CAST(number, \"NSDate\")")
                    }
                    let formatter = ISO8601DateFormatter()
                    formatter.timeZone = TimeZone(identifier: "UTC")
                    return .date(formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds)))
                case "ANY", "ALL", "SOME", "NONE", "SUBQUERY", "FUNCTION", "TRUEPREDICATE", "FALSEPREDICATE":
                    throw Failure(description: "'\(t.text)' (aggregates, subqueries and functions)")
                default:
                    if t.text.hasPrefix("$") { throw Failure(description: "the variable '\(t.text)'") }
                    if t.text.contains(".") || t.text.contains("@") {
                        throw Failure(description: "the key path '\(t.text)' (relationships and aggregates)")
                    }
                    guard let kind = attributes[t.text] else {
                        throw Failure(description: "'\(t.text)' is not an attribute that the rules read for this entity")
                    }
                    return .attribute(t.text, kind)
                }
            }
        }

        mutating func comparison() throws(Failure) -> String {
            let left = try operand()
            let opToken = try next()
            var op = opToken.text.uppercased()
            var caseless = false
            if peek?.text == "[" {
                position += 1
                let modifier = try next().text.lowercased()
                guard modifier == "c", try next().text == "]" else {
                    throw Failure(description: "the modifier [\(modifier)] (only [c] is translated)")
                }
                caseless = true
            }
            if op == "=" { op = "==" }
            if op == "<>" { op = "!=" }
            if op == "=<" { op = "<=" }
            if op == "=>" { op = ">=" }
            let right = try operand()
            guard case .attribute(let name, let kind) = left else {
                throw Failure(description: "a comparison that does not start with an attribute")
            }
            let subject = caseless ? "lower(\(quoted(name)))" : quoted(name)
            func literal(_ o: Operand) throws(Failure) -> String {
                switch (o, kind) {
                case (.number(let n), .number): return n
                case (.string(let s), .string): return string(caseless ? s.lowercased() : s)
                case (.boolean(let b), .boolean): return b ? "true" : "false"
                case (.date(let d), .datetime): return "datetime(\(string(d)))"
                case (.attribute(let other, let otherKind), _) where otherKind == kind && !caseless: return quoted(other)
                default: throw Failure(description: "'\(name)' compared with a value of another type")
                }
            }
            switch op {
            case "==", "!=":
                if case .null = right { return op == "==" ? "isNull(\(quoted(name)))" : "!isNull(\(quoted(name)))" }
                return "\(subject) \(op) \(try literal(right))"
            case "<", "<=", ">", ">=":
                guard kind != .boolean else { throw Failure(description: "an ordering of the Boolean '\(name)'") }
                return "\(subject) \(op) \(try literal(right))"
            case "IN":
                guard case .list(let items) = right, !items.isEmpty else { throw Failure(description: "IN without a { list }") }
                var parts = [String]()
                for item in items { parts.append(try literal(item)) }
                return "\(subject) in [\(parts.joined(separator: ", "))]"
            case "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES":
                guard kind == .string, case .string(var text) = right else {
                    throw Failure(description: "\(op) on something other than a string attribute and a string")
                }
                if caseless && op != "MATCHES" && op != "LIKE" { text = text.lowercased() }
                switch op {
                case "BEGINSWITH": return "startsWith(\(subject), \(string(text)))"
                case "ENDSWITH": return "endsWith(\(subject), \(string(text)))"
                case "CONTAINS": return "contains(\(subject), \(string(text)))"
                default:
                    var pattern = text
                    if op == "LIKE" {
                        pattern = ""
                        for ch in text.unicodeScalars {
                            switch ch {
                            case "*": pattern += ".*"
                            case "?": pattern += "."
                            default:
                                let plain = CharacterSet.alphanumerics.contains(ch) || ch == " " || ch.value > 0x7F
                                pattern += plain ? String(ch) : "\\" + String(ch)
                            }
                        }
                    }
                    if caseless { throw Failure(description: "\(op)[c] (a case-insensitive pattern)") }
                    do throws(PatternError) { _ = try Pattern(pattern) } catch {
                        throw Failure(description: "the pattern '\(text)': \(error.description)")
                    }
                    return "matches(\(quoted(name)), \(string(pattern)))"
                }
            default:
                throw Failure(description: "the operator '\(opToken.text)'")
            }
        }

        /// A name in backquotes when it is not a plain identifier.
        func quoted(_ name: String) -> String {
            name.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil ? name : "`\(name)`"
        }

        /// An expression string literal.
        func string(_ s: String) -> String {
            var out = "\""
            for ch in s.unicodeScalars {
                switch ch {
                case "\\": out += "\\\\"
                case "\"": out += "\\\""
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                default:
                    if ch.value < 0x20 { out += "\\u{\(String(ch.value, radix: 16))}" } else { out.unicodeScalars.append(ch) }
                }
            }
            return out + "\""
        }
    }
}
