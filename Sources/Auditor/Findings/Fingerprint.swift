/// Stable identities of findings, for baselines and history: the same violation of the same
/// record gets the same fingerprint in tomorrow's export, whatever line it moved to.
///
/// A fingerprint hashes (FNV-1a, 64 bits, identical on every machine and run):
/// - the rule id and the entity;
/// - the record key (`id=1043`) when the entity declares one; otherwise the attribute and the
///   offending value; for a table rule (a finding about the whole input) its value;
/// - the occurrence number of that combination within the run (0 for the first), so that
///   two records with the same duplicate key, or two keyless records with the same bad
///   value, are two findings.
/// Line numbers and record ordinals never enter it.
package enum Fingerprint {
    /// The fingerprint of the `occurrence`-th finding (0-based) with the same ``base(of:)``.
    public static func make(base: UInt64, occurrence: Int) -> UInt64 {
        var h = base
        var n = UInt64(occurrence)
        for _ in 0 ..< 8 {
            h = (h ^ (n & 0xFF)) &* prime
            n >>= 8
        }
        return h
    }

    /// The part of a finding's fingerprint that does not depend on its occurrence number.
    /// - Parameters:
    ///   - f: The finding.
    ///   - ruleID: The id to hash instead of `f.ruleID`: a structural rule's reader id
    ///     (`csv.row.ragged` for `csv.row.ragged@people`), so that its fingerprints stay those
    ///     that auditors wrote before structural ids were qualified.
    ///   - key: The record's real key, to hash instead of `f.key` when that is masked (a
    ///     `sensitive` key attribute): the key is hashed, never stored in the finding.
    public static func base(of f: Finding, ruleID: String? = nil, key: String? = nil) -> UInt64 {
        var h = offset
        mix(&h, ruleID ?? f.ruleID)
        mix(&h, f.entity ?? "")
        if let key = key ?? f.key {
            mix(&h, "k")
            mix(&h, key)
        } else if f.location.record == 0 {
            mix(&h, "t")
            mix(&h, f.value ?? "")
        } else {
            mix(&h, "v")
            mix(&h, f.attribute ?? "")
            if let v = f.value { mix(&h, v) } else { mix(&h, "\u{0}null") }
        }
        return h
    }

    /// Sixteen lowercase hex digits, as reports show it.
    public static func hex(_ fp: UInt64) -> String {
        let s = String(fp, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// Parses ``hex(_:)``'s output.
    public static func parse(_ text: some StringProtocol) -> UInt64? {
        guard text.count == 16 else { return nil }
        return UInt64(text, radix: 16)
    }

    private static let offset: UInt64 = 0xCBF2_9CE4_8422_2325
    private static let prime: UInt64 = 0x100_0000_01B3

    private static func mix(_ h: inout UInt64, _ s: String) {
        for b in s.utf8 { h = (h ^ UInt64(b)) &* prime }
        h = (h ^ 0x1F) &* prime         // unit separator: ("ab", "c") ≠ ("a", "bc")
    }
}

/// Assigns fingerprints to findings in input order (occurrence numbers need an order).
/// One per rule of an entity's pass (a base names its rule, so the counts are the same as one
/// counter's); used on the audit thread only.
///
/// Most bases occur once, so they are kept in a set (8 bytes a slot); only a base seen again
/// gets a count (16 bytes a slot), which halves the counter's memory on a run of many findings.
package struct FingerprintCounter: Sendable {
    private var seen = Set<UInt64>()
    /// The occurrences so far of each base seen more than once.
    private var repeats: [UInt64: Int] = [:]

    public init() {}

    /// The fingerprint of `f`, counting it as the next occurrence of its base.
    /// - Parameters: `ruleID` and `key` as in ``Fingerprint/base(of:ruleID:key:)``.
    public mutating func next(_ f: Finding, ruleID: String? = nil, key: String? = nil) -> UInt64 {
        let base = Fingerprint.base(of: f, ruleID: ruleID, key: key)
        if seen.insert(base).inserted { return Fingerprint.make(base: base, occurrence: 0) }
        let n = repeats[base, default: 1]
        repeats[base] = n + 1
        return Fingerprint.make(base: base, occurrence: n)
    }

    /// Every fingerprint that ``next(_:ruleID:key:)`` has returned, in no particular order:
    /// the counter holds them all, so a list of them need not be kept beside it.
    public func issued() -> [UInt64] {
        var list = [UInt64]()
        list.reserveCapacity(seen.count + repeats.values.reduce(0) { $0 + $1 - 1 })
        for base in seen { list.append(Fingerprint.make(base: base, occurrence: 0)) }
        for (base, n) in repeats {
            for k in 1 ..< n { list.append(Fingerprint.make(base: base, occurrence: k)) }
        }
        return list
    }
}

extension Fingerprint {
    /// The key of a rule's fingerprints in a ``FingerprintSet``: its id. A reader's structural
    /// rule's id is already `id@source` (``StructuralRuleID``); a bare structural id (a caller
    /// older than qualified ids) gets its source, so the key is the same either way.
    public static func ruleKey(id: String, entity: String?, source: String) -> String {
        StructuralRuleID.migrated(id, source: source, entity: entity)
    }
}

extension RuleOutcome {
    /// This rule's key in a ``FingerprintSet``.
    public var fingerprintKey: String { Fingerprint.ruleKey(id: id, entity: entity, source: source) }
}

/// Every finding's fingerprint, by rule key (`Fingerprint.ruleKey(id:entity:source:)`; each
/// list sorted ascending, no repeats).
public struct FingerprintSet: Sendable, Equatable {
    public var byRule: [String: [UInt64]]

    /// - Parameter byRule: Each rule's fingerprints in any order; sorted in place when the
    ///   caller hands over the only reference (`consume`).
    public init(byRule: consuming [String: [UInt64]] = [:]) {
        for key in Array(byRule.keys) { byRule[key]?.sortAndRemoveRepeats() }
        self.byRule = byRule
    }

    /// The number of fingerprints over all rules.
    public var count: Int { byRule.values.reduce(0) { $0 + $1.count } }

    public func contains(_ fp: UInt64, rule: String) -> Bool {
        guard let list = byRule[rule] else { return false }
        var lo = 0
        var hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] < fp { lo = mid + 1 } else { hi = mid }
        }
        return lo < list.count && list[lo] == fp
    }
}

extension [UInt64] {
    /// Sorts ascending and drops repeats, in place: no second copy of a long list.
    mutating func sortAndRemoveRepeats() {
        sort()
        var kept = 0
        for i in indices where kept == 0 || self[i] != self[kept - 1] {
            self[kept] = self[i]
            kept += 1
        }
        removeLast(count - kept)
    }
}
