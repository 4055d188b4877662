import Auditor
import Testing

/// ``FrequentValues`` against exact counting on generated streams.
@Suite("Frequent values summary")
struct FrequentValuesSummaryTests {
    @Test("exact while the distinct values fit; bounds and the heavy-hitter guarantee past that",
          arguments: [(8, 5, 1), (64, 40, 2), (64, 500, 3), (16, 2_000, 4)])
    func againstExactCounts(capacity: Int, distinct: Int, seed: UInt64) {
        var state = seed
        var summary = FrequentValues(capacity: capacity)
        var exact = [String?: Int]()
        let n = 20_000
        for _ in 0..<n {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let r = Int(state >> 33)
            // Skewed: value k with weight ~ 1/(k+1), plus missing values.
            let k = r % 7 == 0 ? -1 : (r / 7) % distinct % max(1, (r / 13) % distinct + 1)
            let value: String? = k < 0 ? nil : "v\(k)"
            summary.add(value)
            exact[value, default: 0] += 1
        }
        let all = summary.top(capacity)
        #expect(all.count == min(capacity, exact.count))
        #expect(all.reduce(0) { $0 + $1.count } == n, "Space-Saving keeps the total")
        for entry in all {
            let real = exact[entry.value] ?? 0
            #expect(entry.count - entry.error <= real && real <= entry.count, "\(entry) real \(real)")
            if entry.isExact { #expect(real == entry.count) }
        }
        if exact.count <= capacity { #expect(all.allSatisfy { $0.isExact }) }
        for (value, real) in exact where real > n / capacity {
            #expect(all.contains { $0.value == value }, "\(String(describing: value)) (\(real)) not tracked")
        }
        // Merging two halves keeps every guarantee of one summary over both.
        var a = FrequentValues(capacity: capacity), b = FrequentValues(capacity: capacity)
        for (value, real) in exact.sorted(by: { ($0.key ?? "") < ($1.key ?? "") }) {
            for i in 0..<real { if i % 2 == 0 { a.add(value) } else { b.add(value) } }
        }
        a.merge(b)
        for entry in a.top(capacity) {
            let real = exact[entry.value] ?? 0
            #expect(entry.count - entry.error <= real && real <= entry.count)
        }
    }
}
