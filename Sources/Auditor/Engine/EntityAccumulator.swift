/// Merges chunk evaluations of one entity in chunk order: exact counts per rule, the first
/// samples, the first violating records with all their findings, and the dataset-wide
/// uniqueness state. Sequential by design, so results are identical for any job count.
final class EntityAccumulator {
    let entity: BoundEntity
    let maxSamples: Int
    var counts: [Int]
    var samples: [[Finding]]
    /// Per rule slot: the most frequent failing values.
    var frequent: [FrequentValues]
    var records: [RecordFindings] = []
    var violatingRecords = 0
    var recordsRead = 0
    private(set) var excluded = 0
    /// Per unique key rule: the keys seen so far.
    private var uniqueTables: [Int: UniqueKeys] = [:]
    /// The bytes the unique key sets may hold, with the provided key tables held beside them
    /// (one `--memory-limit` for both); beyond it ``merge(_:)`` throws ``KeySetsOverBudget``
    /// (the engine then spills them to disk and reads again). nil: no limit.
    var uniqueBudget: Int?
    /// The bytes the provided key tables may hold, with the unique key sets beside them, and
    /// the ones that may spill beyond it (``SpilledKeySet``); nil: they stay in memory. They
    /// spill first: that costs no second read of this input.
    var providedBudget: (bytes: Int, spillable: Set<Int>)?
    /// The bytes the provided key tables held when they spilled.
    private(set) var providedSpilledBytes: Int?
    /// Per reference key rule to a spilled key set: the records that dangle (``ReferenceSpill``).
    var danglingReferences: [Int: DuplicateCursor] = [:]
    /// Per unique key rule, when its keys were spilled: the duplicate records, in input order.
    var spilledDuplicates: [Int: DuplicateCursor] = [:]
    /// Records up to this ordinal already went to the sink (in a pass that was read again).
    var sentToSink = 0
    /// The key sets other entities reference (built here, or by a key pre-pass).
    private(set) var providedTables: [KeyTable]
    private let buildsProvided: Bool
    /// For cardinality findings on this entity: per provided key, per key index, the first
    /// record's ordinal, key text and, for a sensitive key, the real key its fingerprint hashes.
    private(set) var providedRecords: [[(ordinal: Int, key: String?, identity: String?)]]
    /// Per reference key rule (this entity as child): referencing records per parent key index.
    private(set) var childCounts: [Int: [Int32]] = [:]
    /// Per freshness rule: the greatest valid value.
    private(set) var maxima: [Int: Double] = [:]
    /// Ordinals of violating records, kept only when cardinality findings may be added later.
    var violatingOrdinals = Set<Int>()
    /// Evaluated counts of rules not counted per record (table rules, cardinality, record rules).
    var evaluatedOverride: [Int: Int] = [:]
    /// Skipped counts of record rules (an input missing or invalid).
    var skippedOverride: [Int: Int] = [:]
    var tracksOrdinals: Bool { !entity.plan.cardinality.isEmpty }
    /// Receives every violating record when set; its first error is kept in ``sinkError``.
    let sink: (any FindingSink)?
    var sinkError: (any Error)?
    /// The records the input probably holds (from its size), to size key tables once.
    var expectedRecords: Int?
    /// Snapshot classification tallies, when the pass compares snapshots.
    var lifecycle: LifecycleTally?
    /// Rules with an `on:` scope (or under `--changed-only`): their evaluated count is the
    /// number of records of their classes.
    var scopedSlots: [(slot: Int, mask: UInt8)] = []
    /// Per reference key rule: referencing records per deleted parent (dense index in the
    /// parent's previous snapshot), for deny delete rules.
    var deletedReferences: [Int: [Int32: Int]] = [:]
    /// Per rule slot, when collecting fingerprints: the counter that issued its findings'
    /// fingerprints (and still holds them, see ``takeFingerprints()``), and the fingerprints
    /// of the delete pass's findings (``absorb(_:)``).
    private var fingerprintCounters: [FingerprintCounter]?
    private var absorbedFingerprints: [[UInt64]] = []
    var collectsFingerprints: Bool { fingerprintCounters != nil }
    /// For type checks, by check: values of the declared type (see ``RootCause``).
    var typeValid: [Int: Int] = [:]
    /// By slot: violations not listed because a reviewer suppressed them, by reviewer id.
    var suppressedByHook: [Int: [String: Int]] = [:]

    init(entity: BoundEntity, maxSamples: Int, sink: (any FindingSink)? = nil, providedTables: [KeyTable]? = nil,
         collectFingerprints: Bool = false) {
        self.entity = entity
        if collectFingerprints {
            fingerprintCounters = Array(repeating: FingerprintCounter(), count: entity.plan.rules.count)
            absorbedFingerprints = Array(repeating: [], count: entity.plan.rules.count)
        }
        self.maxSamples = maxSamples
        self.sink = sink
        counts = Array(repeating: 0, count: entity.plan.rules.count)
        samples = Array(repeating: [], count: entity.plan.rules.count)
        frequent = Array(repeating: FrequentValues(), count: entity.plan.rules.count)
        buildsProvided = providedTables == nil
        self.providedTables = providedTables ?? entity.plan.providedKeys.map { _ in KeyTable() }
        providedRecords = entity.plan.providedKeys.map { _ in [] }
    }

    /// Merges a chunk of a key pre-pass (an entity that references itself): keys only.
    func mergeKeys(_ ev: ChunkEvaluation) throws {
        try insertProvided(ev)
    }

    private func insertProvided(_ ev: ChunkEvaluation) throws {
        let chunk = ev.chunk
        for (pk, keys) in ev.providedKeys.enumerated() where pk < providedTables.count {
            let table = providedTables[pk]
            if let spilled = table.spilled {
                keys.forEach { _, key in spilled.add(key) }
                if let failure = spilled.failure { throw failure }
                continue
            }
            keys.forEach { row, key in
                let r = Int(row)
                if table.insert(key, location: chunk.locations[r]).first == nil, tracksOrdinals {
                    providedRecords[pk].append((chunk.ordinal(r), FindingBuilder.key(entity, chunk, r),
                                                FindingBuilder.identityKey(entity, chunk, r)))
                }
            }
        }
        try spillProvidedIfOver()
    }

    /// Spills the spillable provided key tables when they and the unique key sets outgrow
    /// ``providedBudget`` (once).
    private func spillProvidedIfOver() throws {
        guard let limit = providedBudget, providedSpilledBytes == nil else { return }
        let bytes = providedBytes
        guard bytes + uniqueBytes > limit.bytes else { return }
        for pk in limit.spillable.sorted() { try spillProvided(pk, bytes: bytes) }
        providedSpilledBytes = bytes
    }

    /// The bytes the unique key sets hold.
    private var uniqueBytes: Int { uniqueTables.values.reduce(0) { $0 + $1.memoryBytes } }
    /// The bytes the provided key tables hold.
    private var providedBytes: Int { providedTables.reduce(0) { $0 + $1.memoryBytes } }

    /// Moves a provided key table's keys to disk; its later keys go there too.
    private func spillProvided(_ pk: Int, bytes: Int) throws {
        let set = try SpilledKeySet(bytes: bytes)
        providedTables[pk].forEachKey { set.add($0) }
        if let failure = set.failure { throw failure }
        let empty = KeyTable(capacity: 16)
        empty.spilled = set
        providedTables[pk] = empty
    }

    /// Merges the next chunk (chunks must arrive in order).
    /// - Throws: ``KeySetsOverBudget`` when the unique key sets outgrow ``uniqueBudget``, before
    ///   any record of this chunk goes to the sink; an error reading a spilled duplicate list.
    func merge(_ ev: ChunkEvaluation) throws {
        let chunk = ev.chunk
        entity.files?.note(chunk)
        recordsRead += chunk.count
        excluded += ev.excludedCount
        if buildsProvided { try insertProvided(ev) }
        for (ci, c) in ev.recordCounts {
            let slot = entity.plan.checks[ci].slot
            evaluatedOverride[slot, default: 0] += c.evaluated
            skippedOverride[slot, default: 0] += c.skipped
        }
        for (t, v) in ev.maxima { maxima[t] = max(maxima[t] ?? v, v) }
        for (ci, v) in ev.typeValid { typeValid[ci, default: 0] += v }
        if let changes = ev.changes {
            lifecycle?.merge(changes, chunk, entity)
            for (slot, mask) in scopedSlots {
                var n = 0
                for bit in 0 ..< changes.counts.count where mask & (1 << UInt8(bit)) != 0 { n += changes.counts[bit] }
                evaluatedOverride[slot, default: 0] += n
            }
        }
        for ref in ev.deletedReferences {
            for p in ref.parents { deletedReferences[ref.keyRule, default: [:]][p, default: 0] += 1 }
        }
        for ref in ev.references where !ref.parents.isEmpty {
            var counts = childCounts[ref.keyRule] ?? []
            for p in ref.parents {
                let i = Int(p)
                if i >= counts.count { counts.append(contentsOf: repeatElement(0, count: i - counts.count + 1)) }
                counts[i] &+= 1
            }
            childCounts[ref.keyRule] = counts
        }
        var hits = ev.hits
        for (k, keys) in ev.spilledReferences {
            let check = entity.plan.keyRules[k].check
            guard let dangling = danglingReferences[k] else {
                // Never a reference that passes unchecked: its keys were to be looked up first.
                throw AuditError(.internal, "the keys of rule '\(entity.plan.rules[entity.plan.checks[check].slot].id)' were not looked up "
                                     + "in the spilled key set they reference")
            }
            keys.forEach { row, key in
                if dangling.first(at: chunk.ordinal(Int(row)), key: key) != nil { hits.append(Hit(row: row, check: Int32(check))) }
            }
            if let failure = dangling.failure { throw failure }
        }
        var firstSeen = [Int64: Int64]()       // (row << 32 | check) → first location
        if !ev.uniqueKeys.isEmpty || !ev.spilledReferences.isEmpty {
            for (k, keys) in ev.uniqueKeys {
                if let spilled = spilledDuplicates[k] {
                    let check = entity.plan.keyRules[k].check
                    keys.forEach { row, key in
                        if let first = spilled.first(at: chunk.ordinal(Int(row)), key: key) {
                            hits.append(Hit(row: row, check: Int32(check)))
                            firstSeen[Int64(row) << 32 | Int64(check)] = first
                        }
                    }
                    if let failure = spilled.failure { throw failure }
                    continue
                }
                // Taken out of the dictionary while it grows, so that its arrays stay unshared.
                var table = uniqueTables.removeValue(forKey: k) ?? UniqueKeys(expected: expectedRecords)
                defer { uniqueTables[k] = table }
                let check = entity.plan.keyRules[k].check
                keys.ints.withUnsafeBufferPointer { table.prefetch($0) }
                keys.forEach { row, key in
                    if let first = table.insert(key, location: chunk.locations[Int(row)]) {
                        hits.append(Hit(row: row, check: Int32(check)))
                        firstSeen[Int64(row) << 32 | Int64(check)] = first
                    }
                }
            }
            if let budget = uniqueBudget {
                try spillProvidedIfOver()      // first: it needs no second read of this input
                let bytes = uniqueBytes
                if bytes + providedBytes > budget { throw KeySetsOverBudget(bytes: bytes, sentToSink: sentToSink) }
            }
            hits.sort { $0.row != $1.row ? $0.row < $1.row : $0.check < $1.check }
        }
        var i = 0
        var slots = [Int]()
        while i < hits.count {
            let row = hits[i].row
            let keepRecord = records.count < maxSamples
            var rowFindings: [Finding]? = keepRecord || sink != nil ? [] : nil
            slots.removeAll(keepingCapacity: true)
            var reviewed: RowReview?
            if !entity.hooks.reviewers.isEmpty {
                var end = i
                while end < hits.count, hits[end].row == row { end += 1 }
                reviewed = review(ev, row: Int(row), hits: hits[i ..< end], firstSeen: firstSeen)
            }
            while i < hits.count, hits[i].row == row {
                let h = hits[i]
                i += 1
                let slot = h.check < 0 ? Int(-1 - h.check) : entity.plan.checks[Int(h.check)].slot
                if slots.contains(slot) { continue }
                slots.append(slot)
                counts[slot] += 1
                if let who = reviewed?.suppressed[h.check] {
                    // Counted for its rule, not listed: suppressed by the reviewer, and said so.
                    // Its fingerprint is still recorded, so a baseline does not see it resolved.
                    suppressedByHook[slot, default: [:]][who, default: 0] += 1
                    if collectsFingerprints {
                        var f = FindingBuilder.finding(entity, chunk, Int(row), h, first: firstSeen[Int64(row) << 32 | Int64(h.check)],
                                                       hookMessage: ev.hookMessages[Int64(row) << 32 | Int64(h.check)],
                                                       violations: ev.violations[Int64(row) << 32 | Int64(h.check)],
                                                       old: ev.oldValues[Int64(row) << 32 | Int64(h.check)])
                        stamp(&f, slot: slot, key: FindingBuilder.identityKey(entity, chunk, Int(row)))
                    }
                    continue
                }
                let wantSample = samples[slot].count < maxSamples
                var counted = false
                if !wantSample, rowFindings == nil, !collectsFingerprints,
                   let value = FindingBuilder.value(entity, chunk, Int(row), h) {
                    frequent[slot].add(value)
                    counted = true
                }
                if !counted {
                    var f = FindingBuilder.finding(entity, chunk, Int(row), h,
                                                   first: firstSeen[Int64(row) << 32 | Int64(h.check)],
                                                   hookMessage: ev.hookMessages[Int64(row) << 32 | Int64(h.check)],
                                                   violations: ev.violations[Int64(row) << 32 | Int64(h.check)],
                                                   old: ev.oldValues[Int64(row) << 32 | Int64(h.check)],
                                                   previous: previousTexts(ev, Int(row)))
                    if let m = reviewed?.messages[h.check] { f.message = m }
                    stamp(&f, slot: slot, key: FindingBuilder.identityKey(entity, chunk, Int(row)))
                    if wantSample { samples[slot].append(f) }
                    rowFindings?.append(f)
                    frequent[slot].add(f.value)
                }
            }
            for (r, v) in reviewed?.added ?? [] {
                let check = reviewerCheck(r)
                let slot = entity.plan.checks[check].slot
                counts[slot] += 1
                let rule = entity.plan.rules[slot]
                var f = Finding(ruleID: rule.id, code: v.code, severity: rule.severity, entity: entity.plan.name, attribute: nil,
                                location: FindingBuilder.location(entity, chunk, Int(row)),
                                key: FindingBuilder.key(entity, chunk, Int(row)), value: nil, message: v.message)
                stamp(&f, slot: slot, key: FindingBuilder.identityKey(entity, chunk, Int(row)))
                if samples[slot].count < maxSamples { samples[slot].append(f) }
                rowFindings?.append(f)
            }
            violatingRecords += 1
            if tracksOrdinals { violatingOrdinals.insert(chunk.ordinal(Int(row))) }
            if let rowFindings, !rowFindings.isEmpty {
                let group = RecordFindings(entity: entity.plan.name,
                                           location: FindingBuilder.location(entity, chunk, Int(row)),
                                           key: FindingBuilder.key(entity, chunk, Int(row)), findings: rowFindings)
                if keepRecord { records.append(group) }
                if let sink, sinkError == nil, chunk.ordinal(Int(row)) > sentToSink {
                    do { try sink.receive(group) } catch { sinkError = error }
                    sentToSink = chunk.ordinal(Int(row))
                }
            }
        }
    }

    /// The previous snapshot's texts of an updated record's attributes, by attribute index
    /// (those update rules read as `previous.x`), for its findings.
    private func previousTexts(_ ev: ChunkEvaluation, _ row: Int) -> ((Int) -> String?)? {
        guard let index = lifecycle?.index, let changes = ev.changes, row < changes.previous.count,
              changes.classes[row] == LifecycleScope.updated.rawValue, changes.previous[row] >= 0 else { return nil }
        let p = Int(changes.previous[row])
        return { a in index.text(p, a).map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Gives a finding its fingerprint (the next occurrence of its base) and records it.
    /// - Parameter key: The record's real key when `f.key` is masked (a sensitive key), so that
    ///   the fingerprint tells records apart without the key ever being stored.
    func stamp(_ f: inout Finding, slot: Int, key: String? = nil) {
        guard fingerprintCounters != nil else { return }
        // A structural rule hashes the reader's own id: fingerprints stay those of older runs.
        let readerID = slot < entity.structuralIDs.count ? entity.structuralIDs[slot] : nil
        f.fingerprint = fingerprintCounters?[slot].next(f, ruleID: readerID, key: key)
    }

    /// Every fingerprint issued so far, by rule slot, in no particular order; the counters are
    /// emptied as their lists are made, so the two are never held at once.
    /// - Returns: Nil when this pass does not collect fingerprints.
    func takeFingerprints() -> [[UInt64]]? {
        guard var counters = fingerprintCounters else { return nil }
        fingerprintCounters = nil
        var lists = [[UInt64]]()
        for slot in counters.indices {
            var list = counters[slot].issued()
            counters[slot] = FingerprintCounter()
            list += absorbedFingerprints[slot]
            lists.append(list)
        }
        absorbedFingerprints = []
        return lists
    }

    /// Adds the findings of the delete pass (the previous snapshot's deleted records) to this,
    /// the entity's main pass.
    /// Slots are matched by rule id: the previous snapshot may be in another format, with
    /// other structural rules in front.
    func absorb(_ other: EntityAccumulator) {
        var mine = [String: Int]()
        for (slot, rule) in entity.plan.rules.enumerated() { mine[rule.id] = slot }
        let theirFingerprints = other.takeFingerprints()
        for (theirs, rule) in other.entity.plan.rules.enumerated() {
            guard let slot = mine[rule.id] else { continue }
            counts[slot] += other.counts[theirs]
            frequent[slot].merge(other.frequent[theirs])
            for f in other.samples[theirs] where samples[slot].count < maxSamples { samples[slot].append(f) }
            if let e = other.evaluatedOverride[theirs] { evaluatedOverride[slot, default: 0] += e }
            if let s = other.skippedOverride[theirs] { skippedOverride[slot, default: 0] += s }
            if let list = theirFingerprints?[theirs], collectsFingerprints { absorbedFingerprints[slot] += list }
            for (who, n) in other.suppressedByHook[theirs] ?? [:] { suppressedByHook[slot, default: [:]][who, default: 0] += n }
        }
        // Deleted records are listed with their findings but not counted among the entity's
        // records with findings (they are not records of this snapshot).
        for g in other.records where records.count < maxSamples { records.append(g) }
        if sinkError == nil { sinkError = other.sinkError }
    }

    /// The distinct codes of a rule's checks, in check order; the rule's own code first.
    func codes(slot: Int) -> [Int] {
        var out = [entity.plan.rules[slot].code]
        for c in entity.plan.checks where c.slot == slot {
            if let code = c.code, !out.contains(code) { out.append(code) }
        }
        return out
    }

    /// The rule outcomes in report order.
    func outcomes() -> [RuleOutcome] {
        entity.plan.rules.enumerated().map { slot, r in
            let structural = r.kinds == ["structure"]
            var outcome = RuleOutcome(id: r.id, entity: r.entity, source: r.source, attribute: r.attribute,
                               kind: r.kinds.joined(separator: "+"), severity: r.severity, code: r.code,
                               codes: codes(slot: slot),
                               summary: entity.summary(of: r),
                               evaluated: evaluatedOverride[slot] ?? (structural ? recordsRead : recordsRead - excluded),
                               violations: counts[slot], samples: samples[slot], threshold: r.threshold,
                               skipped: skippedOverride[slot] ?? (structural || evaluatedOverride[slot] != nil ? 0 : excluded),
                               definedAt: r.definedAt?.description)
            outcome.suppressedByHook = suppressedByHook[slot] ?? [:]
            outcome.description = r.description
            outcome.hint = r.hint
            outcome.frequentValues = frequent[slot].top(RuleOutcome.frequentValuesShown)
            return outcome
        }
    }
}

/// Builds findings (the only place a `String` is made from record data).
enum FindingBuilder {
    static let mask = "••••"

    static func location(_ e: BoundEntity, _ chunk: RecordChunk, _ row: Int) -> RecordLocation {
        location(e, ordinal: chunk.ordinal(row), value: chunk.locations[row])
    }

    /// A record's location from its ordinal and its location number (line, rowid).
    /// In a multi-file source, the file packed into `n` (``FileLocation``) is the path, and the
    /// ordinal counts within that file.
    static func location(_ e: BoundEntity, ordinal: Int, value n: Int64) -> RecordLocation {
        guard let files = e.files else { return RecordLocation(path: e.displayPath, style: e.locationStyle, value: n, record: ordinal) }
        let file = FileLocation.file(n)
        return RecordLocation(path: files.path(file), style: e.locationStyle, value: FileLocation.value(n),
                              record: ordinal - files.start(file))
    }

    /// `id=1043` (several key attributes joined by `, `); nil without a key.
    static func key(_ e: BoundEntity, _ chunk: RecordChunk, _ row: Int, masked: Bool = true) -> String? {
        guard !e.keyColumns.isEmpty else { return nil }
        return e.keyColumns.map { k in
            let hidden = masked && e.plan.attributes.first { $0.name == k.name }?.sensitive ?? false
            let v = hidden ? mask : (chunk.string(chunk.columns[k.column][row]) ?? "null")
            return "\(k.name)=\(v)"
        }.joined(separator: ", ")
    }

    /// The record's real key when a key attribute is sensitive (its finding shows the mask),
    /// else nil: what its fingerprint hashes. Never put in a finding or a message.
    static func identityKey(_ e: BoundEntity, _ chunk: RecordChunk, _ row: Int) -> String? {
        guard e.hasSensitiveKey else { return nil }
        return key(e, chunk, row, masked: false)
    }

    /// Renders a location number of this entity's source for messages (`line 17`).
    static func describe(_ e: BoundEntity, location packed: Int64) -> String {
        guard let files = e.files else { return describe(e.locationStyle, location: packed) }
        return describe(e.locationStyle, location: FileLocation.value(packed)) + " of " + files.path(FileLocation.file(packed))
    }

    private static func describe(_ style: LocationStyle, location n: Int64) -> String {
        switch style {
        case .line, .element: return "line \(n)"
        case .rowid: return "rowid \(n)"
        case .key(_, let name): return "\(name) \(n)"
        case .ordinal: return "record \(n)"
        case .rowGroup: return "rowgroup \(n >> 40) row \(n & (1 << 40 - 1))"
        }
    }

    /// A finding's ``Finding/value`` without building the finding (its message), for counting
    /// the most frequent failing values; nil (count it from a whole finding) for a record rule,
    /// whose value lists its inputs.
    static func value(_ e: BoundEntity, _ chunk: RecordChunk, _ row: Int, _ hit: Hit) -> String?? {
        if hit.check < 0 {
            let readerID = e.structuralIDs[Int(-1 - hit.check)]
            return .some(chunk.issues.first { $0.row == row && $0.ruleID == readerID }?.value)
        }
        let check = e.plan.checks[Int(hit.check)]
        if case .record = check.test { return nil }
        var raw = check.attribute.flatMap { chunk.string(e.cell(chunk, attribute: $0, row: row)) }
        var sensitive = check.attribute.map { e.plan.attributes[$0].sensitive } ?? false
        if let kr = e.plan.keyRules.first(where: { $0.check == Int(hit.check) }), kr.shape.attributes.count > 1 {
            raw = kr.shape.attributes.map { chunk.string(e.cell(chunk, attribute: $0, row: row)) ?? "null" }
                .joined(separator: ", ")
            sensitive = kr.shape.attributes.contains { e.plan.attributes[$0].sensitive }
        }
        return .some(sensitive ? raw.map { _ in mask } : raw)
    }

    static func finding(_ e: BoundEntity, _ chunk: RecordChunk, _ row: Int, _ hit: Hit, first: Int64?,
                        hookMessage: String? = nil, violations: [Violation]? = nil, old: String? = nil,
                        previous: ((Int) -> String?)? = nil) -> Finding {
        let loc = location(e, chunk, row)
        let key = key(e, chunk, row)
        if hit.check < 0 {
            let slot = Int(-1 - hit.check)
            let rule = e.plan.rules[slot]
            let readerID = e.structuralIDs[slot]
            let issue = chunk.issues.first { $0.row == row && $0.ruleID == readerID }
            let message = e.structuralMessages[readerID]?.render { p in
                if p == "value" { return issue?.value ?? "" }
                if p == "source" { return e.plan.source }
                return issue?.parameters[p]
            } ?? rule.summaries.joined()
            return Finding(ruleID: rule.id, code: rule.code, severity: rule.severity, entity: e.plan.name,
                           attribute: nil, location: loc, key: key, value: issue?.value, message: message)
        }
        let check = e.plan.checks[Int(hit.check)]
        let rule = e.plan.rules[check.slot]
        let attr = check.attribute.map { e.plan.attributes[$0] }
        if case .record(let when, let assert) = check.test {
            return recordFinding(e, chunk, row, check, rule, when, assert, location: loc, key: key, previous: previous)
        }
        var raw = check.attribute.flatMap { chunk.string(e.cell(chunk, attribute: $0, row: row)) }
        var sensitive = check.attribute.map { e.plan.attributes[$0].sensitive } ?? false
        // A composite key: `value` joins the parts (`GB, 2`), `values` quotes each (`'GB', '2'`).
        var values: String?
        if let kr = e.plan.keyRules.first(where: { $0.check == Int(hit.check) }), kr.shape.attributes.count > 1 {
            let parts = kr.shape.attributes.map { chunk.string(e.cell(chunk, attribute: $0, row: row)) }
            raw = parts.map { $0 ?? "null" }.joined(separator: ", ")
            sensitive = kr.shape.attributes.contains { e.plan.attributes[$0].sensitive }
            values = parts.map { $0.map { "'\($0)'" } ?? "null" }.joined(separator: ", ")
        }
        let value = sensitive ? raw.map { _ in mask } : raw
        let message = check.message.render { p in
            switch p {
            case "value": return value ?? ""
            case "values" where values != nil: return sensitive ? mask : values
            case "length": return raw.map { String($0.unicodeScalars.count) } ?? "0"
            case "first": return first.map { describe(e, location: $0) } ?? ""
            case "firstLine": return first.map { String($0) } ?? ""
            // `line`, `rowid` or `record`: what `{firstLine}` counts, for a translated `{first}`.
            case "firstKind": return first.map { _ in describe(e, location: 0).split(separator: " ").first.map(String.init) ?? "" } ?? ""
            case "violations":
                if let hookMessage { return hookMessage }
                // The violations the evaluation found (the validator does not run again).
                guard case .validator = check.test, let a = check.attribute else { return nil }
                if e.plan.attributes[a].sensitive { return "\(e.plan.attributes[a].name) is invalid (value masked)" }
                let field = check.parameters["field"] ?? e.plan.attributes[a].name
                return (violations ?? []).map { $0.named(field).message }.joined(separator: "; ")
            case "key": return key ?? ""
            case "old": return sensitive ? old.map { _ in mask } : old
            case "entity": return check.parameters["entity"] ?? e.plan.name
            case "location": return loc.description
            default: return check.parameters[p]
            }
        }
        return Finding(ruleID: rule.id, code: check.code ?? rule.code, severity: rule.severity, entity: e.plan.name,
                       attribute: attr?.name, location: loc, key: key, value: value, message: message)
    }

    /// A record rule's finding: its value lists every input (`age=14, has_licence=true`), and
    /// its message may name any attribute of the record.
    static func recordFinding(_ e: BoundEntity, _ chunk: RecordChunk, _ row: Int, _ check: Check, _ rule: RuleInfo,
                              _ when: CompiledExpression?, _ assert: CompiledExpression,
                              location: RecordLocation, key: String?, previous: ((Int) -> String?)? = nil) -> Finding {
        func text(_ a: Int) -> String? {
            e.plan.attributes[a].sensitive ? mask : chunk.string(e.cell(chunk, attribute: a, row: row))
        }
        /// `previous.x` (an update rule): the value in the previous snapshot.
        func previousText(_ name: String) -> String? {
            guard case .previous(let n) = LifecycleInput(name), let a = e.plan.attributes.firstIndex(where: { $0.name == n }),
                  let t = previous?(a) else { return nil }
            return e.plan.attributes[a].sensitive ? mask : t
        }
        var names = [String]()
        for name in (when?.inputs ?? []) + assert.inputs where !names.contains(name) {
            if case .changed = LifecycleInput(name) { continue }      // derived: the values show it
            names.append(name)
        }
        let values = names.map { name in
            "\(name)=\(e.plan.attributes.firstIndex { $0.name == name }.flatMap(text) ?? previousText(name) ?? "null")"
        }.joined(separator: ", ")
        let message = check.message.render { p in
            if LifecycleInput(p).readsPrevious { return previousText(p) ?? "null" }
            if p == "values" { return values }
            if p == "entity" { return check.parameters["entity"] ?? e.plan.name }
            if p == "key" { return key ?? "" }
            if p == "location" { return location.description }
            if let a = e.plan.attributes.firstIndex(where: { $0.name == p }) { return text(a) ?? "null" }
            return check.parameters[p]
        }
        return Finding(ruleID: rule.id, code: check.code ?? rule.code, severity: rule.severity, entity: e.plan.name, attribute: nil,
                       location: location, key: key, value: values, message: message)
    }
}
