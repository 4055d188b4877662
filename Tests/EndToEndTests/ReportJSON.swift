import Foundation
import Testing

/// A JSON report read with Foundation, and the checks that `../shared/bench/check_report.py` does.
struct ReportJSON {
    let root: [String: Any]

    struct Unusable: Error, CustomStringConvertible { var description: String }

    init(_ data: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Unusable(description: "the report is not a JSON object")
        }
        self.root = root
    }

    init(contentsOf url: URL) throws { try self.init(Data(contentsOf: url)) }

    var summary: [String: Any] { root["summary"] as? [String: Any] ?? [:] }
    var inputs: [[String: Any]] { root["inputs"] as? [[String: Any]] ?? [] }
    var rules: [[String: Any]] { root["rules"] as? [[String: Any]] ?? [] }

    /// The rule elements with the given id.
    func rules(withID id: String) -> [[String: Any]] { rules.filter { $0["id"] as? String == id } }

    /// Violations per rule id, summed over elements that share an id — `check_report.py`:
    /// `got[rule["id"]] = got.get(rule["id"], 0) + int(rule["violations"])`, except that a
    /// reader's structural rule, which the report names `csv.row.ragged@people`, is counted
    /// under the bare id the benchmark's `expected.json` uses (summed over sources, as before
    /// structural ids were qualified).
    /// - Throws: ``Unusable`` when `rules` is missing or an element lacks `id`/`violations`
    ///   (the script's "unusable report", exit 2).
    func violationsByRule() throws -> [String: Int] {
        guard let rules = root["rules"] as? [[String: Any]] else {
            throw Unusable(description: "no top-level 'rules' array")
        }
        var got = [String: Int]()
        for rule in rules {
            guard var id = rule["id"] as? String, let n = integer(rule["violations"]) else {
                throw Unusable(description: "a rule element without a string 'id' and an integer 'violations': \(rule)")
            }
            if rule["entity"] is NSNull, let source = rule["source"] as? String, id.hasSuffix("@" + source) {
                id.removeLast(source.count + 1)
            }
            got[id, default: 0] += n
        }
        return got
    }
}

/// An integer from a JSON number (NSNumber or Int, whichever Foundation produced); `nil` otherwise.
func integer(_ value: Any?) -> Int? {
    if let n = value as? Int { return n }
    if let n = value as? NSNumber, n.doubleValue == n.doubleValue.rounded() { return n.intValue }
    return nil
}

/// Ground truth written by `gen.py`: `expected.json` → `counts_by_format.<format>`.
func expectedCounts(_ expectedJSON: URL, format: String) throws -> [String: Int] {
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: expectedJSON))
    guard let byFormat = (object as? [String: Any])?["counts_by_format"] as? [String: Any],
          let counts = byFormat[format] as? [String: Any] else {
        throw ReportJSON.Unusable(description: "\(expectedJSON.path) has no counts_by_format.\(format)")
    }
    var result = [String: Int]()
    for (id, value) in counts {
        guard let n = integer(value) else { throw ReportJSON.Unusable(description: "\(id): not an integer") }
        result[id] = n
    }
    return result
}

/// Benchmark rules that issue 2 does not cover yet (they come with later issues). A report may
/// omit them; once it contains them, their counts are checked like every other rule's.
/// Benchmark rules not yet in rules/people.yml (none: all 27 are).
let deferredRuleIDs: Set<String> = []

/// Checks a report against the generator's counts the way `check_report.py` does (every rule
/// present in both must match exactly), and additionally that every rule of `required` is present
/// (`--require-all`, minus the deferred rules).
func expectCounts(_ report: ReportJSON, equal expected: [String: Int], requiring required: Set<String>,
                  sourceLocation: SourceLocation = #_sourceLocation) throws {
    let got = try report.violationsByRule()
    var compared = 0
    for (id, want) in expected.sorted(by: { $0.key < $1.key }) {
        if let n = got[id] {
            compared += 1
            #expect(n == want, "\(id): expected \(want) violating records, the report says \(n)", sourceLocation: sourceLocation)
        } else if required.contains(id) {
            Issue.record("\(id) (expected \(want)) is not in the report's rules array", sourceLocation: sourceLocation)
        }
    }
    #expect(compared >= required.count, "compared \(compared) rules; at least \(required.count) were required",
            sourceLocation: sourceLocation)
}

/// The report's bytes with the values of `startedAt`, `durationSeconds` and every `seconds`
/// (`inputs[].seconds`) replaced by a placeholder, and how many values were replaced. Everything
/// else, including key order and number formatting, is left byte for byte.
func withoutTimings(_ data: Data) throws -> (text: String, replaced: Int) {
    let text = String(decoding: data, as: UTF8.self)
    let regex = try NSRegularExpression(
        pattern: #""(startedAt|durationSeconds|seconds)"(\s*):(\s*)("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|null)"#)
    let range = NSRange(text.startIndex..., in: text)
    let count = regex.numberOfMatches(in: text, range: range)
    let stripped = regex.stringByReplacingMatches(in: text, range: range, withTemplate: "\"$1\"$2:$3\"<timing>\"")
    return (stripped, count)
}

/// The first line where two texts differ, for a readable failure message.
func firstDifference(_ a: String, _ b: String) -> String {
    let la = a.split(separator: "\n", omittingEmptySubsequences: false)
    let lb = b.split(separator: "\n", omittingEmptySubsequences: false)
    for i in 0..<max(la.count, lb.count) {
        let x = i < la.count ? String(la[i]) : "<end>"
        let y = i < lb.count ? String(lb[i]) : "<end>"
        if x != y { return "line \(i + 1):\n  - \(x)\n  + \(y)" }
    }
    return "no difference"
}
