import Auditor
import Testing

/// The fingerprint counter and set, against plain reference versions written here: occurrence
/// numbers counted in one dictionary, and a set sorted through `Set`.
@Suite struct FingerprintTests {
    func finding(key: Int) -> Finding {
        Finding(ruleID: "P.name.length", code: 1670, severity: .error, entity: "P", attribute: "name",
                location: RecordLocation(path: "p.csv", line: key + 2, record: key + 1), key: "id=\(key)", value: "x",
                message: "too short")
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func counterNumbersRepeatsAndListsWhatItIssued(seed: UInt64) {
        var random = SplitMix64(state: seed)
        var counter = FingerprintCounter()
        var occurrences = [UInt64: Int]()
        var returned = [UInt64]()
        // Keys drawn from a small range, so that many repeat (a duplicate key's findings).
        let range = Int(random.next() % 300) + 1
        for _ in 0 ..< 2_000 {
            let f = finding(key: Int(random.next() % UInt64(range)))
            let base = Fingerprint.base(of: f)
            let n = occurrences[base, default: 0]
            occurrences[base] = n + 1
            let fp = counter.next(f)
            #expect(fp == Fingerprint.make(base: base, occurrence: n))
            returned.append(fp)
        }
        #expect(counter.issued().sorted() == returned.sorted())
        #expect(FingerprintCounter().issued().isEmpty)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func setSortsAndDropsRepeats(seed: UInt64) {
        var random = SplitMix64(state: seed)
        var lists = [String: [UInt64]]()
        for rule in ["a", "b", "c", "empty"] {
            let count = rule == "empty" ? 0 : Int(random.next() % 500) + 1
            lists[rule] = (0 ..< count).map { _ in random.next() % 200 }
        }
        lists["one"] = [7]
        let set = FingerprintSet(byRule: lists)
        #expect(set.byRule == lists.mapValues { Array(Set($0)).sorted() })
        #expect(set.count == lists.values.reduce(0) { $0 + Set($1).count })
        for (rule, list) in lists {
            for fp in list { #expect(set.contains(fp, rule: rule)) }
            #expect(!set.contains(200, rule: rule))
        }
    }
}
