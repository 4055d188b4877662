import Foundation
import TestSupport
import Testing

/// The HTML report's "most frequent failing values" per rule, checked against Python's
/// `collections.Counter` over the same generated CSV: every count shown as exact is exact, every
/// bounded count holds the true count, and the result is the same for any thread count and chunk size.
@Suite("Most frequent failing values")
struct FrequentValuesTests {
    /// `id,name,age` rows: names of 1–2 letters fail `minLength: 3`; a few are very frequent,
    /// then a long tail of `distinct` rare ones (more than the summary tracks when large).
    static func csv(rows: Int, distinct: Int, seed: UInt64) -> String {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var text = "id,name,age\n"
        for i in 0..<rows {
            let r = Int(next() % 100)
            let name: String
            switch r {
            case 0..<20: name = "Alice"
            case 20..<45: name = "Al"                     // the heavy hitter
            case 45..<55: name = "Bo"
            case 55..<60: name = "X"
            default:
                let k = Int(next() % UInt64(distinct))
                name = String(letters[k % 26]) + String(letters[(k / 26) % 26])
            }
            text += "\(i),\(name),\(i % 90)\n"
        }
        return text
    }

    /// Python's exact counts of the failing names (fewer than 3 characters).
    static func reference(_ path: String) throws -> [String: Int] {
        let script = "import csv,sys,json,collections;"
            + "c=collections.Counter(r['name'] for r in csv.DictReader(open(sys.argv[1],newline='')) if len(r['name'])<3);"
            + "print(json.dumps(c))"
        let run = try ChildProcess.run(["python3", "-c", script, path])
        return try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Int], "\(run)")
    }

    /// The values line of rule `id` in an HTML report: (value, count, low bound) per item.
    static func shown(_ html: String, rule id: String) throws -> (items: [(String, Int, Int)], note: String) {
        let start = try #require(html.range(of: "<code>\(id)</code><span class=\"meta\">"), "no section for \(id)")
        let div = try #require(html[start.upperBound...].range(of: "<div class=\"values\">"))
        let end = try #require(html[div.upperBound...].range(of: "</div>"))
        let block = String(html[div.upperBound..<end.lowerBound])
        let note = block.components(separatedBy: "Most frequent failing values (").dropFirst().first?
            .components(separatedBy: "):").first ?? ""
        var items = [(String, Int, Int)]()
        for li in block.components(separatedBy: "<li>").dropFirst() {
            let body = li.components(separatedBy: "</li>")[0]
            let value = body.components(separatedBy: "'").dropFirst().first ?? ""
            let numbers = body.components(separatedBy: " × ")[1].replacingOccurrences(of: ",", with: "")
            let digits = numbers.split { !$0.isNumber }.compactMap { Int($0) }
            // `1204` exact, or `≈ 1210 (1190 to 1210)`.
            items.append((value, digits[0], digits.count == 3 ? digits[1] : digits[0]))
        }
        return (items, note)
    }

    @Test("exact against Python, identical for any --jobs and chunk size",
          arguments: [(3_000, 40), (20_000, 676)])
    func differential(rows: Int, distinct: Int) throws {
        let scratch = try Scratch("frequent")
        defer { scratch.remove() }
        try scratch.write("people.csv", Self.csv(rows: rows, distinct: distinct, seed: UInt64(rows)))
        try scratch.write("rules.yml", Fixture.rules(path: "people.csv"))
        let truth = try Self.reference(scratch.path("people.csv"))
        let total = truth.values.reduce(0, +)
        var pages = [String]()
        for (jobs, chunk) in [("1", "4096"), ("2", "7"), ("2", "4096")] {
            let run = try assertExecute(["run", "rules.yml", "--format", "html", "--jobs", jobs, "--chunk-size", chunk],
                                        in: scratch.url, exitCode: 1)
            let section = try Self.shown(run.stdoutText, rule: "P.name.minLength")
            pages.append("\(section.items)")
            #expect(section.items.count == 10, "\(section.items)")
            // The most frequent first; every bound holds the true count; exact ones are exact.
            #expect(section.items.first?.0 == "Al")
            for (value, count, low) in section.items {
                let real = truth[value] ?? 0
                #expect(low <= real && real <= count, "'\(value)': \(low)…\(count), Python says \(real)")
                if low == count { #expect(real == count, "'\(value)' shown as exactly \(count), Python says \(real)") }
            }
            // Space-Saving's guarantee: every value failing more than violations / 256 times is
            // tracked, and (with a sure count above the others') shown.
            let tenth = truth.values.sorted(by: >)[9]
            for (value, real) in truth where real > max(tenth, total / 256) {
                #expect(section.items.contains { $0.0 == value }, "'\(value)' (\(real)) is missing")
            }
            if distinct <= 200 {
                #expect(section.note.hasPrefix("exact counts"), "\(section.note)")
                let listed = section.items.reduce(0) { $0 + $1.1 }
                #expect(section.note.contains("\(NumberFormatter.localizedString(from: NSNumber(value: total - listed), number: .decimal))")
                        || total == listed, "\(section.note)")
            }
        }
        #expect(Set(pages).count == 1, "the values differ between --jobs / --chunk-size: \(pages)")
    }
}
