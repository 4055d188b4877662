import Foundation

/// A message with `{name}` placeholders, parsed once (`{{` and `}}` write literal braces).
///
/// Plural- and word-aware parts use the ICU MessageFormat subset:
/// - `{count, plural, one {# field} other {# fields}}`: the branch for the number's plural
///   category in the template's language (`=0`-style exact branches first); `#` is the number.
/// - `{reason, select, missing {…} other {…}}`: the branch named by the parameter's text.
/// Every plural or select needs an `other` branch; branches may hold placeholders.
public struct MessageTemplate: Sendable, Equatable {
    indirect enum Part: Sendable, Equatable {
        case text(String)
        case placeholder(String)
        /// `#` inside a plural branch: the number.
        case number
        case plural(String, [(String, [Part])])
        case select(String, [(String, [Part])])

        static func == (a: Part, b: Part) -> Bool {
            switch (a, b) {
            case (.text(let x), .text(let y)), (.placeholder(let x), .placeholder(let y)): return x == y
            case (.number, .number): return true
            case (.plural(let n, let x), .plural(let m, let y)), (.select(let n, let x), .select(let m, let y)):
                return n == m && x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
            default: return false
            }
        }
    }

    let parts: [Part]
    /// The template as written.
    public let source: String
    /// The language whose plural rules choose a plural branch (`en`, `fr`, …).
    public let language: String

    /// Parses an English template.
    /// - Throws: A message (without location) for an unclosed `{` or a malformed plural or select.
    public init(_ source: String) throws(TemplateError) {
        try self.init(source, language: "en")
    }

    /// Parses a template.
    /// - Parameters:
    ///   - source: The template text.
    ///   - language: The language whose plural rules apply (a locale tag; `fr-CA` uses `fr`).
    /// - Throws: A message (without location) for an unclosed `{` or a malformed plural or select.
    public init(_ source: String, language: String) throws(TemplateError) {
        self.source = source
        self.language = language
        var scanner = Scanner(chars: Array(source), i: 0)
        parts = try scanner.parts(inPlural: false, nested: false)
    }

    /// The placeholder names used (including those a plural or select chooses on).
    public var placeholders: [String] {
        var names = [String]()
        func walk(_ parts: [Part]) {
            for part in parts {
                switch part {
                case .placeholder(let p): names.append(p)
                case .plural(let p, let branches), .select(let p, let branches):
                    names.append(p)
                    for (_, b) in branches { walk(b) }
                case .text, .number: break
                }
            }
        }
        walk(parts)
        return names
    }

    /// Substitutes parameters; an unknown name is left as `{name}`.
    public func render(_ lookup: (String) -> String?) -> String {
        var out = ""
        render(parts, number: nil, lookup, into: &out)
        return out
    }

    private func render(_ parts: [Part], number: String?, _ lookup: (String) -> String?, into out: inout String) {
        for part in parts {
            switch part {
            case .text(let t): out += t
            case .placeholder(let p): out += lookup(p) ?? "{\(p)}"
            case .number: out += number ?? "#"
            case .plural(let p, let branches):
                guard let value = lookup(p) else { out += "{\(p)}"; continue }
                let category = PluralRules.category(of: value, language: language)
                let branch = branches.first { $0.0 == "=\(value)" } ?? branches.first { $0.0 == category }
                    ?? branches.first { $0.0 == "other" }
                render(branch?.1 ?? [], number: value, lookup, into: &out)
            case .select(let p, let branches):
                guard let value = lookup(p) else { out += "{\(p)}"; continue }
                let branch = branches.first { $0.0 == value } ?? branches.first { $0.0 == "other" }
                render(branch?.1 ?? [], number: number, lookup, into: &out)
            }
        }
    }

    public struct TemplateError: Error, Sendable {
        public var message: String
    }

    /// A recursive-descent reader of the template's characters.
    private struct Scanner {
        let chars: [Character]
        var i: Int

        /// Reads parts up to the end, or (when `nested`) up to and including the closing `}`.
        mutating func parts(inPlural: Bool, nested: Bool) throws(TemplateError) -> [Part] {
            var parts = [Part]()
            var text = ""
            func flush() { if !text.isEmpty { parts.append(.text(text)); text = "" } }
            while i < chars.count {
                let c = chars[i]
                let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
                if c == "{" && next == "{" { text.append("{"); i += 2; continue }
                if c == "}" && next == "}" && !nested { text.append("}"); i += 2; continue }
                if c == "}" && nested { flush(); i += 1; return parts }
                if c == "#" && inPlural { flush(); parts.append(.number); i += 1; continue }
                if c == "{" {
                    flush()
                    i += 1
                    parts.append(try argument())
                    continue
                }
                text.append(c)
                i += 1
            }
            if nested { throw TemplateError(message: "unclosed '{' in a plural or select branch; close every branch with '}'") }
            flush()
            return parts
        }

        /// After `{`: `name}`, or `name, plural|select, key {…} … other {…}}`.
        mutating func argument() throws(TemplateError) -> Part {
            let start = i
            while i < chars.count, chars[i] != "}", chars[i] != "," { i += 1 }
            guard i < chars.count else {
                throw TemplateError(message: "unclosed '{' in message template; write '{{' for a literal brace")
            }
            let name = String(chars[start ..< i]).trimmingCharacters(in: .whitespaces)
            if chars[i] == "}" { i += 1; return .placeholder(name) }
            i += 1
            let typeStart = i
            while i < chars.count, chars[i] != "," { i += 1 }
            let type = String(chars[typeStart ..< min(i, chars.count)]).trimmingCharacters(in: .whitespaces)
            guard type == "plural" || type == "select", i < chars.count else {
                throw TemplateError(message: "'{\(name), \(type)' is not a plural or select; write '{\(name), plural, one {…} other {…}}', "
                                        + "'{\(name), select, word {…} other {…}}' or '{\(name)}'")
            }
            i += 1
            var branches = [(String, [Part])]()
            while true {
                while i < chars.count, chars[i].isWhitespace { i += 1 }
                guard i < chars.count else {
                    throw TemplateError(message: "unclosed '{\(name), \(type), …': end it with '}'")
                }
                if chars[i] == "}" { i += 1; break }
                let keyStart = i
                while i < chars.count, !chars[i].isWhitespace, chars[i] != "{", chars[i] != "}" { i += 1 }
                let key = String(chars[keyStart ..< i])
                while i < chars.count, chars[i].isWhitespace { i += 1 }
                guard i < chars.count, chars[i] == "{" else {
                    throw TemplateError(message: "the branch '\(key)' of '{\(name), \(type), …' needs its text in braces: \(key) {…}")
                }
                i += 1
                if type == "plural", !key.hasPrefix("="), !PluralRules.categories.contains(key) {
                    throw TemplateError(message: "unknown plural category '\(key)' in '{\(name), plural, …'; use "
                                            + PluralRules.categories.joined(separator: ", ") + " or an exact '=N'")
                }
                branches.append((key, try parts(inPlural: type == "plural", nested: true)))
            }
            guard branches.contains(where: { $0.0 == "other" }) else {
                throw TemplateError(message: "'{\(name), \(type), …' has no 'other' branch; add 'other {…}'")
            }
            return type == "plural" ? .plural(name, branches) : .select(name, branches)
        }
    }
}

/// CLDR plural categories of the languages auditor ships catalogs for (cardinal numbers).
enum PluralRules {
    static let categories = ["zero", "one", "two", "few", "many", "other"]

    /// The category of a number written as text (`1`, `2.5`); `other` for anything else.
    static func category(of text: String, language: String) -> String {
        let lang = String(language.lowercased().prefix { $0 != "-" && $0 != "_" })
        let digits = text.hasPrefix("-") ? String(text.dropFirst()) : text
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard let intPart = parts.first, !intPart.isEmpty, intPart.allSatisfy(\.isASCII), intPart.allSatisfy(\.isNumber) else {
            return "other"
        }
        let isInteger = parts.count == 1
        let integer = intPart.drop { $0 == "0" }
        switch lang {
        case "fr":
            // CLDR: one for i = 0 or 1 (0, 1, 1.5); many for large round numbers is not used here.
            return integer.isEmpty || integer == "1" ? "one" : "other"
        default:
            // English and the default: one for exactly 1 (not 1.0).
            return isInteger && integer == "1" ? "one" : "other"
        }
    }
}
