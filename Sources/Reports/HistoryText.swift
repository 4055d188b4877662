import Auditor

/// `auditor history PATH` as text: each rule's violations over the last runs with a sparkline,
/// the median the latest run's jump test used, the latest count and a `JUMPED` flag, then the
/// runs themselves.
///
/// ```
/// History of audits.sqlite: last 2 of 3 runs, oldest first
///
/// RULE              TREND  COUNTS  MEDIAN  LATEST  NEW
/// P.name.minLength  ▁█     2 9     2       9       7    JUMPED
///
/// RUN  STARTED               OUTCOME  RECORDS  VIOLATIONS  NEW  RESOLVED
/// 2    2026-11-21T02:00:00Z  failed   4        2           1    2
/// 3    2026-11-22T02:00:00Z  failed   9        9           7    0
/// ```
///
/// Columns are padded with spaces and no line ends in a space. Everything read from the
/// database (rule ids, entities, paths, outcomes) goes through ``TerminalText/escaped(_:)``: a
/// history is a file anyone could have edited. `-` marks a value the run did not have (no
/// earlier run for the median, no baseline for NEW).
package struct HistoryText: Sendable {
    /// Draw sparklines with ASCII characters instead of Unicode blocks.
    public var ascii: Bool

    public init(ascii: Bool = false) {
        self.ascii = ascii
    }

    public func render(_ history: HistoryOverview) -> String {
        let path = TerminalText.escaped(history.path)
        guard !history.runs.isEmpty else { return "History of \(path): no runs recorded yet\n" }
        var out = "History of \(path): "
        out += history.runs.count == history.totalRuns
            ? "\(Plural.count(history.totalRuns, "run")), oldest first\n"
            : "last \(history.runs.count) of \(history.totalRuns) runs, oldest first\n"

        if !history.rules.isEmpty {
            var rows = [["RULE", "TREND", "COUNTS", "MEDIAN", "LATEST", "NEW", ""]]
            // A reader's structural rules (csv.row.ragged) repeat their id in every source.
            var seen = [String: Int]()
            for rule in history.rules { seen[rule.id, default: 0] += 1 }
            for rule in history.rules {
                let latest = rule.points.last
                let name = (seen[rule.id] ?? 0) > 1 ? "\(rule.id) (\(rule.source))" : rule.id
                rows.append([
                    TerminalText.escaped(name),
                    Sparkline.render(rule.counts, ascii: ascii),
                    rule.counts.map(String.init).joined(separator: " "),
                    rule.median.map(Self.number) ?? "-",
                    rule.latest.map(String.init) ?? "-",
                    latest?.baseline.map { String($0.new) } ?? "-",
                    rule.jumped ? "JUMPED" : "",
                ])
            }
            out += "\n" + Self.table(rows)
        }

        var rows = [["RUN", "STARTED", "OUTCOME", "RECORDS", "VIOLATIONS", "NEW", "RESOLVED"]]
        for run in history.runs {
            rows.append([
                String(run.id),
                TerminalText.escaped(run.startedAt),
                TerminalText.escaped(run.outcome),
                String(run.records),
                String(run.violations),
                run.newFindings.map(String.init) ?? "-",
                run.resolvedFindings.map(String.init) ?? "-",
            ])
        }
        out += "\n" + Self.table(rows)
        if !history.rules.isEmpty {
            out += "\nMEDIAN: of up to \(RuleTrend.window) complete runs before the latest. "
                + "JUMPED: the latest run is at least 50% and 5 violations above it "
                + "(needs \(RuleTrend.minimumRuns) earlier runs). NEW: findings not in the run's baseline.\n"
        }
        return out
    }

    /// `2`, `2.5`: a median is a whole number or a half.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : NumberText.fixed(value, fractionDigits: 1)
    }

    /// Left-aligned columns two spaces apart; trailing empty cells and spaces dropped.
    static func table(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        var out = ""
        for row in rows {
            var line = ""
            for (i, cell) in row.enumerated() {
                line += cell
                if i < row.count - 1 { line += String(repeating: " ", count: widths[i] - cell.count + 2) }
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}
