import Auditor
import Foundation

/// Translates the common subset of Core Data's predicate language (NSPredicate's format
/// strings) into an auditor expression: comparisons, `AND`/`OR`/`NOT`, `==`/`!=` with
/// `YES`/`NO`/`nil`, `IN { … }`, `BEGINSWITH`/`ENDSWITH`/`CONTAINS`/`LIKE`/`MATCHES` (with the
/// `[c]` modifier), and `CAST(n, "NSDate")` against a Date attribute. Anything else (key paths
/// through relationships, aggregates, `$VARIABLES`, `SUBQUERY`, `[d]`) is refused with a reason.
package struct CoreDataPredicate: Sendable {
    /// What an attribute reads as in the rules, which decides what it may be compared with.
    public enum Kind: Sendable { case number, string, boolean, datetime }

    /// Why a predicate was not translated.
    public struct Unsupported: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The entity's attributes in the rules and their kinds.
    public var attributes: [String: Kind]

    public init(attributes: [String: Kind]) { self.attributes = attributes }

    /// The expression for `predicate`.
    /// - Throws: ``Unsupported`` naming the first construct outside the subset.
    public func translate(_ predicate: String) throws(Unsupported) -> String {
        var parser = Parser(tokens: try Self.tokens(predicate), attributes: attributes)
        let result = try parser.or()
        guard parser.position == parser.tokens.count else {
            throw Unsupported(description: "unexpected '\(parser.tokens[parser.position].text)'")
        }
        return result
    }

    struct Token: Sendable {
        enum Kind: Sendable { case word, number, string, symbol }
        var kind: Kind
        var text: String
    }

    static func tokens(_ s: String) throws(Unsupported) -> [Token] {
        var out = [Token]()
        let chars = Array(s.unicodeScalars)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == " " || c == "\t" || c == "\n" { i += 1; continue }
            if c == "\"" || c == "'" {
                var text = "", j = i + 1
                while j < chars.count && chars[j] != c {
                    if chars[j] == "\\" && j + 1 < chars.count { j += 1 }
                    text.unicodeScalars.append(chars[j]); j += 1
                }
                guard j < chars.count else { throw Unsupported(description: "unterminated string") }
                out.append(Token(kind: .string, text: text)); i = j + 1; continue
            }
            if CharacterSet.decimalDigits.contains(c) || (c == "-" && i + 1 < chars.count && CharacterSet.decimalDigits.contains(chars[i + 1])
                                                        && (out.last.map { $0.kind == .symbol && $0.text != ")" } ?? true)) {
                var j = i + 1
                while j < chars.count && (CharacterSet.decimalDigits.contains(chars[j]) || chars[j] == ".") { j += 1 }
                out.append(Token(kind: .number, text: String(String.UnicodeScalarView(chars[i..<j])))); i = j; continue
            }
            if CharacterSet.letters.contains(c) || c == "_" || c == "$" || c == "@" {
                var j = i + 1
                while j < chars.count && (CharacterSet.alphanumerics.contains(chars[j]) || chars[j] == "_" || chars[j] == "." || chars[j] == "@") { j += 1 }
                out.append(Token(kind: .word, text: String(String.UnicodeScalarView(chars[i..<j])))); i = j; continue
            }
            let two = i + 1 < chars.count ? String(String.UnicodeScalarView(chars[i...i + 1])) : ""
            if ["==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||"].contains(two) {
                out.append(Token(kind: .symbol, text: two)); i += 2; continue
            }
            if "()=<>!{},[].".unicodeScalars.contains(c) {
                out.append(Token(kind: .symbol, text: String(c))); i += 1; continue
            }
            throw Unsupported(description: "the character '\(c)'")
        }
        return out
    }
}
