import Auditor
import Foundation

/// A model's localization (`<lang>.lproj/<Model>Model.strings`, Xcode's old-style strings
/// file) turned into an auditor message catalog: `Entity/Person` and
/// `Property/name/Entity/Person` become display names (`names:`), `ErrorString/<text>` the
/// translation of the rules whose message is that text (`rules:`).
struct CoreDataStrings {
    /// The pairs of a `.strings` file, in file order.
    let pairs: [(key: String, value: String)]

    /// Parses a `.strings` file: UTF-8, or UTF-16 with its byte-order mark (as Xcode writes
    /// them); `/* */` and `//` comments; `"key" = "value";` with `\"`, `\\`, `\n`, `\t`,
    /// `\r`, `\0` and `\U1234` escapes (unquoted keys and values of letters, digits and
    /// `_.$:/-` are allowed too).
    /// - Throws: ``AuditError`` `.dataError` naming the file, the line and what was expected.
    init(data: Data, path: String) throws {
        let text: String
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]) {
            guard let t = String(data: data, encoding: .utf16) else {
                throw AuditError(.malformedInput, "the localization is not valid UTF-16", location: path)
            }
            text = t
        } else {
            guard let t = String(data: data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data, encoding: .utf8) else {
                throw AuditError(.malformedInput, "the localization is neither UTF-8 nor UTF-16 with a byte-order mark", location: path)
            }
            text = t
        }
        var scanner = Scanner(Array(text.unicodeScalars), path: path)
        var pairs = [(key: String, value: String)]()
        while true {
            scanner.skipSpaceAndComments()
            if scanner.atEnd { break }
            let key = try scanner.string()
            scanner.skipSpaceAndComments()
            try scanner.expect("=")
            scanner.skipSpaceAndComments()
            let value = try scanner.string()
            scanner.skipSpaceAndComments()
            try scanner.expect(";")
            pairs.append((key, value))
        }
        self.pairs = pairs
    }

    /// The catalog's YAML for `locale`, the rules' messages as `rules:` entries by id, and
    /// notes for the entries that name nothing of the rules.
    /// - Parameters:
    ///   - entities: The rules' entities with their attribute names.
    ///   - messages: Each rule id's English message (the model's error strings).
    func catalog(locale: String, source: String, entities: [String: Set<String>],
                 messages: [String: String]) -> (yaml: String, notes: [String]) {
        var names = [(String, String)]()
        var rules = [(String, String)]()
        var notes = [String]()
        for (key, value) in pairs {
            let parts = key.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if parts.count == 2, parts[0] == "Entity", entities[parts[1]] != nil {
                names.append((parts[1], value))
            } else if parts.count == 4, parts[0] == "Property", parts[2] == "Entity",
                      entities[parts[3]]?.contains(parts[1]) == true {
                names.append(("\(parts[3]).\(parts[1])", value))
            } else if parts.count >= 2, parts[0] == "ErrorString" {
                let text = parts.dropFirst().joined(separator: "/")
                let ids = messages.filter { $0.value == text }.keys.sorted()
                if ids.isEmpty { notes.append("'\(key)': no rule has this message") }
                rules += ids.map { ($0, value) }
            } else {
                notes.append("'\(key)': names no entity or property of the rules")
            }
        }
        var yaml = "# Display names and messages in '\(locale)', from \(source) (auditor import coredata).\n"
        yaml += "# Use: auditor run RULES --locale \(locale)\nlocale: \(Evidence.quoted(locale))\n"
        if !names.isEmpty {
            yaml += "names:\n" + names.map { "  \(Evidence.quoted($0.0)): \(Evidence.quoted($0.1))\n" }.joined()
        }
        if !rules.isEmpty {
            yaml += "rules:\n" + rules.map { "  \(Evidence.quoted($0.0)): \(Evidence.quoted($0.1))\n" }.joined()
        }
        return (yaml, notes)
    }

    /// A cursor over the file's scalars that knows its line.
    private struct Scanner {
        let scalars: [Unicode.Scalar]
        let path: String
        var i = 0
        var line = 1

        init(_ scalars: [Unicode.Scalar], path: String) {
            self.scalars = scalars
            self.path = path
        }

        var atEnd: Bool { i >= scalars.count }

        mutating func advance() {
            if scalars[i] == "\n" { line += 1 }
            i += 1
        }

        mutating func skipSpaceAndComments() {
            while i < scalars.count {
                let c = scalars[i]
                if c.properties.isWhitespace || c == "\u{FEFF}" {
                    advance()
                } else if c == "/", i + 1 < scalars.count, scalars[i + 1] == "*" {
                    i += 2
                    while i < scalars.count, !(scalars[i] == "*" && i + 1 < scalars.count && scalars[i + 1] == "/") { advance() }
                    i = min(scalars.count, i + 2)
                } else if c == "/", i + 1 < scalars.count, scalars[i + 1] == "/" {
                    while i < scalars.count, scalars[i] != "\n" { i += 1 }
                } else {
                    return
                }
            }
        }

        func error(_ message: String) -> AuditError {
            AuditError(.malformedInput, "\(message) (line \(line))", location: path)
        }

        mutating func expect(_ c: Unicode.Scalar) throws {
            guard i < scalars.count, scalars[i] == c else {
                throw error("expected '\(c)'" + (i < scalars.count ? ", found '\(scalars[i].escaped(asASCII: true))'" : " before the end"))
            }
            advance()
        }

        /// A quoted string with its escapes, or an unquoted word.
        mutating func string() throws -> String {
            guard i < scalars.count else { throw error("expected a quoted string before the end") }
            var out = String.UnicodeScalarView()
            if scalars[i] != "\"" {
                let word: (Unicode.Scalar) -> Bool = { $0.properties.isAlphabetic || ("0" ... "9").contains($0) || "_.$:/-".unicodeScalars.contains($0) }
                while i < scalars.count, word(scalars[i]) { out.append(scalars[i]); advance() }
                if out.isEmpty { throw error("expected a quoted string, found '\(scalars[i].escaped(asASCII: true))'") }
                return String(out)
            }
            advance()
            while true {
                guard i < scalars.count else { throw error("a string is not closed") }
                let c = scalars[i]
                advance()
                if c == "\"" { return String(out) }
                guard c == "\\" else { out.append(c); continue }
                guard i < scalars.count else { throw error("a string ends in '\\'") }
                let e = scalars[i]
                advance()
                switch e {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "0": out.append("\0")
                case "U", "u":
                    var value: UInt32 = 0
                    for _ in 0 ..< 4 {
                        guard i < scalars.count, scalars[i].isASCII, let d = UInt32(String(scalars[i]), radix: 16) else {
                            throw error("'\\U' needs four hexadecimal digits")
                        }
                        value = value * 16 + d
                        advance()
                    }
                    guard let u = Unicode.Scalar(value) else { throw error("'\\U\(String(value, radix: 16))' is not a character") }
                    out.append(u)
                default: out.append(e)     // \" \\ and any other escaped character stand for themselves
                }
            }
        }
    }
}
