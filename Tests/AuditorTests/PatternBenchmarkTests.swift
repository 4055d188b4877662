import Foundation
import Testing
@testable import Auditor

/// Opt-in throughput check: `AUDITOR_BENCH=1 swift test -c release --filter PatternBenchmark`.
/// Without the variable it returns at once. The values are packed into one byte buffer with
/// offsets, the way a record chunk holds text, and matched on one thread.
@Suite("Pattern benchmark")
struct PatternBenchmarkTests {
    static let rows = 1_000_000
    static let first = ["James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda",
                        "William", "Elizabeth", "Emma", "Noah", "Olivia", "Liam", "Jonas", "Lena", "Felix",
                        "Piotr", "Giulia", "Marco", "Pablo", "Lucia", "Lars", "Ingrid", "Wei", "Mei", "Omar",
                        "José", "Zoë", "Renée", "Søren", "Björn", "François", "Inés", "Jürgen", "Åsa", "Gaël",
                        "Chloé", "Agustín", "Mónica", "Hélène", "Jérôme", "Dörte"]
    static let last = ["Smith", "Johnson", "Williams", "Brown", "Garcia", "Miller", "Davis", "Rodriguez",
                       "Schmidt", "Schneider", "Fischer", "Weber", "Kowalski", "Nowak", "Rossi", "Esposito",
                       "Fernandez", "Andersson", "de Jong", "van den Berg", "Dubois", "Tanaka", "Chen",
                       "Müller", "Schäfer", "Björklund", "Łukasiewicz", "Núñez", "O'Brien"]
    static let domains = ["mail.example.net", "example.com", "corp.example.org", "sub.example.co.uk", "web.de"]

    /// `count` values made by `make`, packed into one buffer.
    static func pack(_ count: Int, _ make: (inout SplitMix64) -> String) -> (bytes: [UInt8], ends: [Int]) {
        var random = SplitMix64(state: 42)
        var bytes: [UInt8] = []
        var ends: [Int] = []
        bytes.reserveCapacity(count * 24)
        ends.reserveCapacity(count)
        for _ in 0..<count {
            bytes += make(&random).utf8
            ends.append(bytes.count)
        }
        return (bytes, ends)
    }

    static func name(_ random: inout SplitMix64) -> String {
        let given = first.randomElement(using: &random) ?? ""
        let family = last.randomElement(using: &random) ?? ""
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<3: return given + "_" + family             // invalid
        case 3..<5: return given.prefix(2) + "1" + family   // invalid
        case 5..<13: return given + " " + (first.randomElement(using: &random) ?? "") + " " + family
        default: return given + " " + family
        }
    }

    static func email(_ random: inout SplitMix64) -> String {
        let given = (first.randomElement(using: &random) ?? "").lowercased().filter(\.isASCII)
        let family = (last.randomElement(using: &random) ?? "").lowercased().filter { $0.isASCII && $0 != " " && $0 != "'" }
        var local = given + "." + family
        if Int.random(in: 0..<100, using: &random) < 15 { local += String(Int.random(in: 1..<100, using: &random)) }
        let domain = domains.randomElement(using: &random) ?? ""
        switch Int.random(in: 0..<100, using: &random) {
        case 0: return local + domain                 // no @
        case 1: return local + "@@" + domain
        case 2: return local + "@" + domain + "."     // trailing dot
        default: return local + "@" + domain
        }
    }

    /// Best-of-three matches per second over the packed values, and the number matched.
    static func measure(_ pattern: Pattern, _ data: (bytes: [UInt8], ends: [Int])) -> (rate: Double, matched: Int) {
        var best = Duration.seconds(1_000)
        var matched = 0
        data.bytes.withUnsafeBufferPointer { buffer in
            for _ in 0..<3 {
                var count = 0
                let elapsed = ContinuousClock().measure {
                    var start = 0
                    for end in data.ends {
                        if pattern.matches(UnsafeBufferPointer(rebasing: buffer[start..<end])) { count += 1 }
                        start = end
                    }
                }
                best = min(best, elapsed)
                matched = count
            }
        }
        let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) * 1e-18
        return (Double(data.ends.count) / seconds, matched)
    }

    /// `12.3` for 12,345,678.
    static func millions(_ value: Double) -> String {
        let tenths = Int((value / 1e5).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    @Test func throughput() throws {
        guard ProcessInfo.processInfo.environment["AUDITOR_BENCH"] == "1" else { return }
        let cases: [(label: String, source: String, data: (bytes: [UInt8], ends: [Int]))] = [
            ("name", "[A-Za-zÀ-ÖØ-öø-ÿ ]+", Self.pack(Self.rows, Self.name)),
            ("email", "[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}", Self.pack(Self.rows, Self.email)),
        ]
        for (label, source, data) in cases {
            let pattern = try Pattern(source)
            // The same pattern through the general automaton, for comparison.
            let general = try Pattern(source, maxDFAStates: PatternDFA.maxStates, allowClassRun: false)
            let simulated = try Pattern(source, maxDFAStates: 0, allowClassRun: false)
            let (rate, matched) = Self.measure(pattern, data)
            let (generalRate, generalMatched) = Self.measure(general, data)
            let (simulatedRate, simulatedMatched) = Self.measure(simulated, data)
            let average = Double(data.bytes.count) / Double(data.ends.count)
            print("PatternBenchmark \(label) /\(source)/: \(Self.millions(rate)) M matches/s [\(pattern.strategy)], "
                  + "\(Self.millions(generalRate)) M/s [dfa], \(Self.millions(simulatedRate)) M/s [nfa]; "
                  + "\(matched) of \(data.ends.count) match, \(Self.millions(average * 1e6)) bytes on average")
            #expect(generalMatched == matched && simulatedMatched == matched)
            #expect(matched > data.ends.count / 2 && matched < data.ends.count)
            #if !DEBUG
            #expect(rate >= 5e6, "\(label): \(rate / 1e6) M matches/s is below the 5 M/s target")
            #endif
        }
    }
}
