import Foundation

/// A profile of one or more sources, with the rules it suggests.
package struct ProfileReport: Sendable {
    public var sources: [SourceProfile]
    public var foreignKeys: [ForeignKey]
    /// Per source, in source order.
    public var rules: [[SuggestedRule]]

    /// Builds the cross-source facts and the suggestions.
    public init(sources: [SourceProfile]) {
        self.sources = sources
        foreignKeys = RuleSuggestions.foreignKeys(sources)
        rules = sources.map { RuleSuggestions.rules(for: $0) }
        for (i, s) in sources.enumerated() {
            for fk in foreignKeys where fk.source == s.name {
                rules[i].append(SuggestedRule(id: "\(s.name).\(fk.column).fk", source: s.name, column: fk.column,
                                              yaml: "", evidence: RulesDraft.evidence(fk),
                                              outliers: fk.outliers, outlierValues: fk.outlierValues))
            }
            for d in s.dependencies where RulesDraft.isPlain(d.first) && RulesDraft.isPlain(d.second) {
                let id: String, evidence: String
                switch d.kind {
                case .notAfter:
                    id = "\(s.name).\(d.first).notAfter.\(d.second)"
                    evidence = "\(d.first) is on or before \(d.second) in all \(Evidence.count(d.checked)) records with both"
                case .nullTogether:
                    id = "\(s.name).\(d.first).nullWith.\(d.second)"
                    evidence = "\(d.first) is missing exactly when \(d.second) is, in all \(Evidence.count(d.checked)) records"
                case .atLeastWhen:
                    id = "\(s.name).\(d.first).minWhen.\(d.second)"
                    evidence = "\(d.first) is at least \(d.bound ?? "?") in all \(Evidence.count(d.checked)) records where \(d.second) is true, and lower in at least 1 % of the others"
                }
                var rule = SuggestedRule(id: id, source: s.name, column: nil, yaml: RulesDraft.assertion(d),
                                         evidence: evidence, outliers: 0)
                if d.kind == .atLeastWhen { rule.when = "\(d.second) == true" }
                rules[i].append(rule)
            }
        }
    }

    /// Every flagged outlier: the records the suggested rules would report on this data.
    public var outlierCount: Int {
        rules.joined().reduce(0) { $0 + $1.outliers } + sources.reduce(0) { $0 + $1.excludedRecords }
    }
}

/// Writes a profile's suggested rules as a commented rules file.
package enum RulesDraft {
    /// Whether a column name can be written bare in YAML keys and expressions.
    static func isPlain(_ name: String) -> Bool {
        guard let f = name.unicodeScalars.first, f == "_" || (f.isASCII && f.properties.isAlphabetic) else { return false }
        let words: Set<String> = ["and", "or", "not", "in", "between", "true", "false", "null"]
        return !words.contains(name) && name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }

    static func key(_ name: String) -> String { isPlain(name) ? name : Evidence.quoted(name) }

    /// The candidate key the drafted entity is keyed by: one named `id`, else one whose name ends
    /// in `id`, else the first; an integer before text, text before other types.
    static func primaryKey(_ s: SourceProfile) -> ColumnProfile? {
        func rank(_ c: ColumnProfile, _ i: Int) -> (Int, Int, Int) {
            let name = c.name.lowercased()
            return (name == "id" ? 0 : name.hasSuffix("id") ? 1 : 2, c.inferredType == .integer ? 0 : c.inferredType == .string ? 1 : 2, i)
        }
        return s.columns.enumerated().filter(\.element.isKey).min { rank($0.element, $0.offset) < rank($1.element, $1.offset) }?.element
    }

    /// Whether a JSON Lines key can be named as a `path:` of the jsonl block (keys separated by dots).
    static func isPath(_ name: String) -> Bool { !name.isEmpty && !name.contains(".") }

    /// The columns of a JSON Lines source that are lists or maps, and of an XML source the child
    /// elements that repeat (the profile read them as lists), to declare `as: list` / `as: map`.
    static func composites(_ s: SourceProfile) -> [(name: String, kind: String)] {
        switch s.format {
        case "jsonl": return s.columns.compactMap { c in c.composite.flatMap { isPath(c.name) ? (c.name, $0) : nil } }
        case "xml": return s.columns.compactMap { c in c.composite.map { (c.name, $0) } }
        default: return []
        }
    }

    /// "99.9 % of 4,990 values are keys of departments.id; 3 are not (flagged outliers)".
    static func evidence(_ fk: ForeignKey) -> String {
        "\(Evidence.share(fk.checked - fk.outliers, fk.checked)) of \(Evidence.count(fk.checked)) value\(fk.checked == 1 ? "" : "s") (\(Evidence.count(fk.distinct)) distinct) \(fk.checked == 1 ? "is a key" : "are keys") of \(fk.targetSource).\(fk.targetColumn)"
            + (fk.outliers > 0 ? "; \(Evidence.count(fk.outliers)) are not (flagged outliers)" : "")
    }

    /// The `assert:` of a dependency.
    static func assertion(_ d: Dependency) -> String {
        switch d.kind {
        case .nullTogether: return "isNull(\(d.first)) == isNull(\(d.second))"
        case .atLeastWhen: return "\(d.first) >= \(d.bound ?? "0")"
        case .notAfter:
            let mixed = d.firstType != d.secondType
            let a = mixed && d.firstType == .datetime ? "date(\(d.first))" : d.first
            let b = mixed && d.secondType == .datetime ? "date(\(d.second))" : d.second
            return "\(a) <= \(b)"
        }
    }

    /// The rules file.
    /// - Parameters:
    ///   - report: The profile.
    ///   - folder: The folder the rules file will be written to (source paths are relative to it).
    /// - Returns: YAML that `auditor check` accepts.
    public static func yaml(_ report: ProfileReport, folder: String) -> String {
        // Each file once: a database's tables are sources of one file.
        let files = report.sources.map(\.path).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        var y = "# Rules suggested by `auditor profile` from \(files.joined(separator: ", ")).\n"
        y += "# Each rule's comment gives its evidence. The profiled data passes every rule except the\n"
        y += "# flagged outliers (\(Evidence.count(report.outlierCount)) record findings in all). Review before use.\n"
        y += "version: 1\nsources:\n"
        for s in report.sources {
            y += "  \(key(s.name)):\n    path: \(Evidence.quoted(relative(s.path, to: folder)))\n"
            y += "    format: \(s.format)\n"
            var pairs = s.options.sorted { $0.key < $1.key }.map { "\($0.key): \(Evidence.quoted($0.value))" }
            pairs += s.readings.yaml
            let composites = composites(s)
            if !composites.isEmpty {
                // Lists and maps declared, so that their count and key rules apply.
                y += "    \(s.format):\n" + pairs.map { "      \($0)\n" }.joined() + "      fields:\n"
                for c in composites { y += "        \(key(c.name)): { path: \(Evidence.quoted(c.name)), as: \(c.kind) }\n" }
            } else if !pairs.isEmpty {
                y += "    \(s.format): { \(pairs.joined(separator: ", ")) }\n"
            }
        }
        y += "entities:\n"
        for (i, s) in report.sources.enumerated() {
            let rules = report.rules[i]
            y += "  \(RuleSuggestions.entityName(s.name)):\n    source: \(key(s.name))\n    idPrefix: \(Evidence.quoted(s.name))\n"
            if let k = primaryKey(s) {
                y += "    key: [\(key(k.name))]\n"
            } else if let first = s.compositeKeys.first {
                y += "    key: [\(first.map(key).joined(separator: ", "))]\n"
                y += "    # \(comment(compositeEvidence(s)))\n"
                y += "    unique:\n"
                for set in s.compositeKeys { y += "      - [\(set.map(key).joined(separator: ", "))]\n" }
            }
            if s.excludedRecords > 0 {
                y += "    # \(Evidence.count(s.excludedRecords)) records are malformed (flagged outliers, reported by the reader).\n"
            }
            y += "    attributes:\n"
            for c in s.columns {
                let mine = rules.filter { $0.column == c.name && !$0.yaml.isEmpty }
                let type = c.inferredType ?? .string
                y += "      \(key(c.name)):\n"
                if let kind = c.composite {
                    y += "        # 100 % of \(Evidence.values(c.facts.present)) \(c.facts.present == 1 ? "a \(kind)" : "\(kind)s")"
                        + " (\(c.facts.minItems ?? 0)–\(c.facts.maxItems ?? 0) \(kind == "list" ? "items" : "entries"))\n"
                    // An attribute needs a constraint: `string` accepts a list or map as it is.
                    if mine.isEmpty { y += "        type: string\n" }
                } else if !mine.contains(where: { $0.yaml.hasPrefix("type:") }) {
                    y += "        type: \(type.rawValue)\(c.inferredType == nil ? "   # no value to infer a type from" : "")\n"
                }
                for r in mine {
                    y += "        # \(comment(r.evidence))\n"
                    if !r.outlierValues.isEmpty {
                        y += "        # outliers: \(comment(r.outlierValues.prefix(10).map { "\(Evidence.quoted($0.value)) ×\($0.count)" }.joined(separator: ", ")))\(r.outlierValues.count > 10 ? ", ..." : "")\n"
                    }
                    y += "        \(r.yaml)\n"
                }
            }
            let fks = report.foreignKeys.filter { $0.source == s.name }
            if !fks.isEmpty {
                y += "    relationships:\n"
                for fk in fks {
                    let target = RuleSuggestions.entityName(fk.targetSource)
                    y += "      # \(comment(evidence(fk)))\n"
                    if !fk.outlierValues.isEmpty {
                        y += "      # outliers: \(comment(fk.outlierValues.prefix(10).map { "\(Evidence.quoted($0.value)) ×\($0.count)" }.joined(separator: ", ")))\n"
                    }
                    y += "      \(key(fk.column + "_ref")): { attribute: \(key(fk.column)), references: \(target).\(fk.targetColumn) }\n"
                }
            }
            let deps = rules.filter { $0.column == nil }
            if !deps.isEmpty {
                y += "    rules:\n"
                for d in deps {
                    y += "      # \(comment(d.evidence))\n"
                    let when = d.when.map { ", when: \(Evidence.quoted($0))" } ?? ""
                    y += "      - { id: \(Evidence.quoted(d.id))\(when), assert: \(Evidence.quoted(d.yaml)) }\n"
                }
            }
        }
        return y
    }

    /// "each of these column sets is present and unique in all 1,000 records; no single column is".
    static func compositeEvidence(_ s: SourceProfile) -> String {
        let sets = s.compositeKeys.map { "(" + $0.joined(separator: ", ") + ")" }.joined(separator: ", ")
        return "\(sets): together present and unique in all \(Evidence.count(s.records)) records; no single column is"
    }

    /// Comment text on one line.
    static func comment(_ s: String) -> String {
        String(s.unicodeScalars.map { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{85}" ? " " : Character($0) })
    }

    /// `path` relative to `folder` when both are under the same root; absolute otherwise; a
    /// connection URL as it is.
    static func relative(_ path: String, to folder: String) -> String {
        if SourceURL.isURL(path) { return path }   // a connection URL is not a file
        let cwd = FileManager.default.currentDirectoryPath
        let abs = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true)).standardizedFileURL.pathComponents
        let base = URL(fileURLWithPath: folder.isEmpty ? "." : folder, isDirectory: true, relativeTo: URL(fileURLWithPath: cwd, isDirectory: true)).standardizedFileURL.pathComponents
        var i = 0
        while i < abs.count - 1 && i < base.count && abs[i] == base[i] { i += 1 }
        let ups = [String](repeating: "..", count: base.count - i)
        return (ups + abs[i...]).joined(separator: "/")
    }
}
