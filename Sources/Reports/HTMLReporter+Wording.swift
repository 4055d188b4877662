import Auditor

extension HTMLReporter.Page {
    /// `2,000` with the wording's group mark.
    func n(_ value: Int) -> String { w.number(NumberText.grouped(value)) }

    /// `0.70%` with the wording's decimal mark and percent phrase.
    func percent(_ count: Int, of total: Int) -> String {
        w("number.percent", ["rate": w.number(String(NumberText.percent(count, of: total).dropLast()))])
    }

    /// The phrase `key` as HTML text: the catalog's words escaped (they never become markup),
    /// its `parameters` escaped with ``HTMLText/escaped(_:)`` (CONVENTIONS rule 8), and
    /// `markup` values (already HTML, built from escaped data) inserted as they are.
    /// - Parameters:
    ///   - key: A ``ReportPhrases`` key.
    ///   - parameters: Plain-text values (numbers already written with ``n(_:)``).
    ///   - markup: HTML fragments, keyed by placeholder.
    func t(_ key: String, _ parameters: [String: String] = [:], markup: [String: String] = [:]) -> String {
        var all = parameters, inserts = markup
        for (name, value) in parameters where !Self.isInert(value) {
            // Stands in for the value while the phrase is escaped; numbers and select words stay,
            // as plural and select branches read them.
            all[name] = "\u{E000}\(name)\u{E001}"
            inserts[name] = HTMLText.escaped(value)
        }
        for name in markup.keys { all[name] = "\u{E000}\(name)\u{E001}" }
        var out = Self.text(w(key, all))
        for (name, html) in inserts { out = out.replacingOccurrences(of: "\u{E000}\(name)\u{E001}", with: html) }
        return out
    }

    /// A value that needs no escaping and may select a branch: a number written with any
    /// group and decimal marks (`1 234,5`), or a lower-case word (`yes`).
    static func isInert(_ value: String) -> Bool {
        value.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ",. %\u{A0}\u{202F}".unicodeScalars.contains($0) }
            || value.unicodeScalars.allSatisfy { ("a"..."z").contains($0) }
    }

    /// `<th>…</th>` cells of a ` | `-separated column phrase; `numeric` columns (by position)
    /// get `class="n"`.
    func headers(_ key: String, numeric: Set<Int> = []) -> String {
        w(key).components(separatedBy: " | ").enumerated()
            .map { "<th\(numeric.contains($0.offset) ? " class=\"n\"" : "")>\(Self.text($0.element))</th>" }.joined()
    }

    /// Text for an HTML text node: `&`, `<` and `>` escaped, quotes kept (they are safe
    /// outside attributes, and English phrases keep their bytes).
    static func text(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }) else { return s }
        return s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The phrases the page's script shows, as JSON for `script#report-phrases`: pager and
    /// filter status templates with `{shown}`-style slots the script fills, and nouns in
    /// their `one` and `other` forms (the script picks one with `Intl.PluralRules`).
    func scriptPhrases() -> String {
        let slots = ["shown": "{shown}", "total": "{total}", "noun": "{noun}"]
        var phrases: [String: JSONValue] = [
            "lang": .string(w.locale),
            "group": .string(w.number(",")),
            "pager": .string(w("html.pager.status", slots)),
            "pagerMatching": .string(w("html.pager.matching", slots)),
            "filter": .string(w("html.filter.status", ["rules": "{rules}", "samples": "{samples}", "records": "{records}"])),
            "count": .string(w("html.filter.count", slots)),
            "missing": .string(w("md.missing")),
            "new": .string(w("finding.new")),
            "existing": .string(w("md.existing")),
            "code": .string(w("html.code", ["code": "{code}"])),
            "value": .string(w("finding.value", ["value": "{value}"])),
        ]
        for noun in ["sample", "record", "rule"] {
            phrases[noun] = .object(["one": .string(w("html.noun.\(noun)", ["count": "1"])),
                                     "other": .string(w("html.noun.\(noun)", ["count": "2"]))])
        }
        let members = phrases.sorted { $0.key < $1.key }.map { JSONValue.Member(key: $0.key, value: $0.value) }
        return String(JSONWriter(htmlSafe: true, compact: true).write(.object(members)).dropLast())
    }
}
