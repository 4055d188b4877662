/// Snapshot comparison (`--previous`): records of the current snapshot are matched with the
/// previous one by the entity's key and classified inserted, updated (with the attributes
/// that changed), unchanged or — for previous records without a match — deleted. Core Data's
/// validateForInsert/Update/Delete become rules scoped with `on:`.
///
/// Values compare by their stored form: text bytes, or the canonical text of a typed cell
/// (`7` in a CSV equals INTEGER 7 in SQLite; `7.0` and `7` differ).

/// The previous snapshot of one entity, indexed by its key. Per record (dense key index, the
/// first occurrence of a key wins): a 64-bit hash of each attribute's value, and the text of
/// attributes with `immutable`/`transitions` constraints for messages and transition checks.
///
/// `@unchecked Sendable`: built on the audit thread by ``merge(_:chunk:)``; while the current
/// snapshot is audited, evaluation threads only read it and the audit thread only writes
/// ``seen``, which no evaluation thread reads until that pass has ended.
final class SnapshotIndex: @unchecked Sendable {
    let table = KeyTable()
    let attributeCount: Int
    let textAttributes: [Int]
    /// `attributeCount` hashes per dense index.
    private(set) var hashes: [UInt64] = []
    /// Per attribute of ``textAttributes``: previous texts by dense index.
    private(set) var texts: [Int: TextArena] = [:]
    /// Per dense index: matched by a record of the current snapshot.
    var seen: [Bool] = []
    /// Records read from the previous snapshot (keyless and repeated keys included).
    private(set) var records = 0
    /// False when the previous snapshot could not be read to its end: nothing is classified.
    var complete = true
    /// Keys and locations of deleted records, by dense index (set by the delete pass); with a
    /// sensitive key, the real key its findings' fingerprints hash.
    var deleted: [Int: (key: String?, location: RecordLocation, identity: String?)] = [:]
    /// Per dense index: the 1-based ordinal of the record in the previous snapshot.
    private(set) var ordinals: [Int] = []
    /// How the previous snapshot's records are located, for findings and samples.
    var locationStyle = LocationStyle.ordinal
    var displayPath = ""

    init(attributeCount: Int, textAttributes: [Int]) {
        self.attributeCount = attributeCount
        self.textAttributes = textAttributes
        for a in textAttributes { texts[a] = TextArena() }
    }

    var count: Int { table.count }

    /// Previous records no current record matched.
    var deletedCount: Int { complete ? seen.reduce(0) { $0 + ($1 ? 0 : 1) } : 0 }

    @inline(__always)
    func isDeleted(_ p: Int) -> Bool { complete && !seen[p] }

    /// Every hash, `attributeCount` per dense index.
    var allHashes: [UInt64] { hashes }

    /// Adds a chunk of the previous snapshot (in chunk order).
    func merge(_ rows: SnapshotRows, chunk: RecordChunk) {
        records += chunk.count
        var k = 0
        rows.keys.forEach { row, key in
            defer { k += 1 }
            guard table.insert(key, location: chunk.locations[Int(row)]).first == nil else { return }
            hashes.append(contentsOf: rows.hashes[k * attributeCount ..< (k + 1) * attributeCount])
            seen.append(false)
            ordinals.append(chunk.ordinal(Int(row)))
            for a in textAttributes { texts[a]?.append(from: rows.texts[a], at: k) }
        }
    }

    /// The previous text of attribute `a` of dense index `p` (nil when it was missing).
    func text(_ p: Int, _ a: Int) -> [UInt8]? { texts[a]?.bytes(p) }
}

/// Texts in one byte arena; a missing value has length -1.
struct TextArena: Sendable {
    var storage: [UInt8] = []
    var starts: [Int] = []
    var lengths: [Int32] = []

    mutating func append(_ text: UnsafeBufferPointer<UInt8>?) {
        starts.append(storage.count)
        guard let text else {
            lengths.append(-1)
            return
        }
        storage.append(contentsOf: text)
        lengths.append(Int32(text.count))
    }

    mutating func append(from other: TextArena?, at i: Int) {
        guard let other, let b = other.bytes(i) else {
            starts.append(storage.count)
            lengths.append(-1)
            return
        }
        starts.append(storage.count)
        storage.append(contentsOf: b)
        lengths.append(Int32(b.count))
    }

    func bytes(_ i: Int) -> [UInt8]? {
        guard i < lengths.count, lengths[i] >= 0 else { return nil }
        return Array(storage[starts[i] ..< starts[i] + Int(lengths[i])])
    }
}

extension Lifecycle {
    /// The previous copies of a chunk's updated rows, for update hooks: one chunk of the
    /// previous texts the index keeps (``LifecycleContext/textAttributes``), typed by the
    /// entity's declared types, and the names of the attributes that changed.
    /// - Complexity: O(updated rows × attributes); only called when an update hook exists.
    static func committedRecords(_ entity: BoundEntity, _ changes: RowChanges, _ index: SnapshotIndex) -> [Int: CommittedRecord] {
        let attributes = index.textAttributes
        let rows = changes.classes.indices.filter { changes.classes[$0] == LifecycleScope.updated.rawValue && changes.previous[$0] >= 0 }
        guard !rows.isEmpty else { return [:] }
        var bytes = [UInt8]()
        var columns = [[Cell]](repeating: [], count: attributes.count)
        var locations = [Int64]()
        for r in rows {
            let p = Int(changes.previous[r])
            locations.append(index.table.locations[p])
            for (j, a) in attributes.enumerated() {
                guard let text = index.text(p, a) else {
                    columns[j].append(.missing)
                    continue
                }
                columns[j].append(.text(offset: bytes.count, length: text.count))
                bytes += text
            }
        }
        let chunk = RecordChunk(firstRecord: 0, count: rows.count, bytes: bytes, columns: columns, locations: locations)
        var names = [String: Int](), types = [String: ValueType]()
        for (j, a) in attributes.enumerated() {
            names[entity.plan.attributes[a].name] = j
            types[entity.plan.attributes[a].name] = entity.plan.attributes[a].type
        }
        let layout = RecordLayout(columns: names, types: types)
        var out = [Int: CommittedRecord]()
        for (k, r) in rows.enumerated() {
            let changed = Set(entity.plan.attributes.indices.filter { changes.changed(r, $0) }.map { entity.plan.attributes[$0].name })
            out[r] = CommittedRecord(view: RecordView(chunk: chunk, row: k, layout: layout), changed: changed)
        }
        return out
    }
}

/// The keyed rows of a chunk with their attribute hashes (and lifecycle attributes' texts).
struct SnapshotRows: Sendable {
    var keys = KeyColumn()
    /// `attributeCount` hashes per keyed row, in `keys.rows` order.
    var hashes: [UInt64] = []
    var texts: [Int: TextArena] = [:]
}

/// How the rows of a chunk relate to the previous snapshot.
struct RowChanges: Sendable {
    /// Per row: a ``LifecycleScope`` raw value (one bit), or 0 for a row no rule sees (a
    /// previous record that was not deleted, in the delete pass).
    var classes: [UInt8]
    /// Per row: its dense index in the previous snapshot, or -1.
    var previous: [Int32]
    /// Per row, `words` words: bit `a` set when attribute `a` changed (updated rows).
    var changed: [UInt64]
    var words: Int
    /// Rows per class, excluded rows not counted, by bit position of the class.
    var counts: [Int] = Array(repeating: 0, count: 5)

    @inline(__always)
    func changed(_ row: Int, _ a: Int) -> Bool {
        changed[row * words + a / 64] & (1 << UInt64(a % 64)) != 0
    }
}

/// What an entity pass knows about snapshots.
struct LifecycleContext: Sendable {
    enum Mode: Sendable {
        /// No previous snapshot: every record is inserted (a first snapshot).
        case first
        /// Classify against the previous snapshot.
        case compare(SnapshotIndex)
        /// Read the previous snapshot again: its deleted records, for `on: [delete]` rules.
        case deletePass(SnapshotIndex)
    }

    var mode: Mode
    var keyShape: KeyShape?
    /// Per check of the bound entity: the classes it applies to (raw ``LifecycleScope``).
    var scopes: [UInt8]
    /// Rows of a class outside every scope are not classified at all (`--changed-only`).
    var active: UInt8
    /// Attributes with `immutable` or `transitions` checks.
    var textAttributes: [Int]

    init(mode: Mode, entity: BoundEntity, changedOnly: Bool) {
        self.mode = mode
        let plan = entity.plan
        let idx = plan.key.compactMap { k in plan.attributes.firstIndex { $0.name == k } }
        keyShape = idx.isEmpty || idx.count != plan.key.count ? nil
            : KeyShape(attributes: idx, types: idx.map { plan.attributes[$0].type })
        let property: LifecycleScope = changedOnly ? [.inserted, .updated, .unclassified] : .current
        scopes = plan.checks.map { c in
            if let s = c.scope { return s.rawValue }
            switch c.test {
            case .keyed, .unique, .structural: return LifecycleScope.current.rawValue
            default: return property.rawValue
            }
        }
        active = scopes.reduce(0, |)
        let readOnUpdate = Set(entity.hooks.attributesReadOnUpdate)
        textAttributes = plan.attributes.indices.filter { a in
            // An update hook's `previous` view.
            if readOnUpdate.contains(plan.attributes[a].name) { return true }
            return plan.checks.contains { c in
                if case .record(let when, let assert) = c.test {
                    // `previous.x` in an update rule.
                    return ((when?.inputs ?? []) + assert.inputs).contains { LifecycleInput($0) == .previous(plan.attributes[a].name) }
                }
                guard c.attribute == a else { return false }
                if case .transitions = c.test { return true }
                if case .immutable = c.test { return true }
                return false
            }
        }
    }

    var isDeletePass: Bool {
        if case .deletePass = mode { return true }
        return false
    }
}

enum Lifecycle {
    /// Keys and attribute hashes of a chunk's keyed rows.
    /// - Parameters:
    ///   - columns: The chunk's typed columns; the key attributes must be classified on every
    ///     row no structural issue excludes (``ChunkColumns``'s `wide` attributes).
    ///   - hashing: Also hash every attribute (the previous snapshot's index pass).
    static func rows(_ columns: ChunkColumns, _ bytes: UnsafeBufferPointer<UInt8>,
                     keyShape: KeyShape, textAttributes: [Int] = [], hashing: Bool = true) -> SnapshotRows {
        let entity = columns.entity
        let chunk = columns.chunk
        var typed = [Int: TypedColumn]()
        for a in keyShape.attributes { typed[a] = columns.column(a) }
        var out = SnapshotRows()
        out.keys = KeyEncoder.column(keyShape, typed, chunk, bytes)
        guard hashing else { return out }
        let count = entity.plan.attributes.count
        let keyed = out.keys.rows
        out.hashes = [UInt64](repeating: hash(.missing, chunk, bytes), count: keyed.count * count)
        out.hashes.withUnsafeMutableBufferPointer { h in
            // Column by column: one column's cells are contiguous.
            for a in 0 ..< count where entity.columns[a] >= 0 {
                chunk.columns[entity.columns[a]].withUnsafeBufferPointer { column in
                    for (k, row) in keyed.enumerated() { h[k * count + a] = hash(column[Int(row)], chunk, bytes) }
                }
            }
        }
        for a in textAttributes {
            var arena = TextArena()
            for row in out.keys.rows {
                let cell = entity.cell(chunk, attribute: a, row: Int(row))
                if cell.tag == .missing {
                    arena.append(nil)
                } else {
                    TextAccess.withText(cell, chunk, bytes) { arena.append($0) }
                }
            }
            out.texts[a] = arena
        }
        return out
    }

    /// A value's hash: its text bytes, or the canonical text of a typed cell.
    @inline(__always)
    static func hash(_ cell: Cell, _ chunk: RecordChunk, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        if cell.tag == .missing { return 0x6D69_7373_696E_6721 }
        if cell.tag == .text { return hash(UnsafeBufferPointer(rebasing: bytes[Int(cell.payload) ..< Int(cell.payload) + Int(cell.length)])) }
        return TextAccess.withText(cell, chunk, bytes) { hash($0) }
    }

    /// Eight bytes at a time, then the tail; mixed with the length.
    @inline(__always)
    static func hash(_ t: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(t.count)
        guard let base = t.baseAddress else { return KeyTable.hash(Int64(bitPattern: h)) }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= t.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < t.count {
            tail |= UInt64(t[i]) << shift
            shift += 8
            i += 1
        }
        return KeyTable.hash(Int64(bitPattern: (h ^ tail) &* 0x94D0_49BB_1331_11EB))
    }

    /// Classifies the rows of a chunk of the current snapshot (or, in the delete pass, of the
    /// previous one).
    /// - Parameter columns: The chunk's typed columns (the lifecycle's key attributes among
    ///   those classified on every non-excluded row).
    static func changes(_ columns: ChunkColumns, _ bytes: UnsafeBufferPointer<UInt8>,
                        _ context: LifecycleContext) -> RowChanges {
        let entity = columns.entity
        let chunk = columns.chunk
        let excluded = columns.excluded
        let n = chunk.count
        let count = entity.plan.attributes.count
        let words = max(1, (count + 63) / 64)
        var out = RowChanges(classes: [UInt8](repeating: LifecycleScope.inserted.rawValue, count: n),
                             previous: [Int32](repeating: -1, count: n), changed: [], words: words)
        switch context.mode {
        case .first:
            break
        case .compare(let index):
            guard index.complete, let shape = context.keyShape else {
                out.classes = [UInt8](repeating: LifecycleScope.unclassified.rawValue, count: n)
                break
            }
            out.changed = [UInt64](repeating: 0, count: n * words)
            let keys = rows(columns, bytes, keyShape: shape, hashing: false).keys
            var matched = [(row: Int, previous: Int)]()
            keys.forEach { row, key in
                guard let p = index.table.index(of: key) else { return }
                matched.append((Int(row), p))
                out.previous[Int(row)] = Int32(p)
            }
            // Column by column against the previous hashes (a local copy of the array: no
            // exclusivity check per access).
            let previous = index.allHashes
            let missing = hash(.missing, chunk, bytes)
            previous.withUnsafeBufferPointer { old in
                for a in 0 ..< count {
                    let bit = UInt64(1) << UInt64(a % 64)
                    let word = a / 64
                    if entity.columns[a] < 0 {
                        for (r, p) in matched where old[p * count + a] != missing { out.changed[r * words + word] |= bit }
                        continue
                    }
                    chunk.columns[entity.columns[a]].withUnsafeBufferPointer { column in
                        for (r, p) in matched where hash(column[r], chunk, bytes) != old[p * count + a] {
                            out.changed[r * words + word] |= bit
                        }
                    }
                }
            }
            for (r, _) in matched {
                var any = false
                for w in 0 ..< words where out.changed[r * words + w] != 0 { any = true }
                out.classes[r] = (any ? LifecycleScope.updated : LifecycleScope.unchanged).rawValue
            }
        case .deletePass(let index):
            out.classes = [UInt8](repeating: 0, count: n)
            guard let shape = context.keyShape else { break }
            let keys = rows(columns, bytes, keyShape: shape, hashing: false).keys
            keys.forEach { row, key in
                let r = Int(row)
                // The first occurrence of a key stands for it (its location is the key's).
                guard let p = index.table.index(of: key), index.isDeleted(p),
                      index.table.locations[p] == chunk.locations[r] else { return }
                out.previous[r] = Int32(p)
                out.classes[r] = LifecycleScope.deleted.rawValue
            }
        }
        for r in 0 ..< n where !excluded[r] && out.classes[r] != 0 {
            out.counts[out.classes[r].trailingZeroBitCount] += 1
        }
        return out
    }

    /// `immutable` and `transitions` checks on the updated rows of a chunk.
    static func evaluate(_ entity: BoundEntity, _ chunk: RecordChunk, _ bytes: UnsafeBufferPointer<UInt8>,
                         _ changes: RowChanges, _ index: SnapshotIndex, excluded: [Bool],
                         _ hits: inout [Hit], _ old: inout [Int64: String]) {
        for (ci, check) in entity.plan.checks.enumerated() {
            guard let a = check.attribute else { continue }
            let transitions: Transitions?
            switch check.test {
            case .immutable: transitions = nil
            case .transitions(let t): transitions = t
            default: continue
            }
            for r in 0 ..< chunk.count where !excluded[r] && changes.classes[r] == LifecycleScope.updated.rawValue
                && changes.changed(r, a) {
                let p = Int(changes.previous[r])
                let before = index.text(p, a)
                let cell = entity.cell(chunk, attribute: a, row: r)
                if let transitions {
                    guard let before, cell.tag != .missing else { continue }     // presence is `required`'s business
                    let ok = TextAccess.withText(cell, chunk, bytes) { transitions.allows(from: before, to: Array($0)) }
                    if ok { continue }
                }
                hits.append(Hit(row: Int32(r), check: Int32(ci)))
                old[Int64(r) << 32 | Int64(ci)] = before.map { String(decoding: $0, as: UTF8.self) } ?? "null"
            }
        }
    }
}

/// Counts and samples of an entity's record changes, merged in chunk order on the audit thread.
final class LifecycleTally {
    let index: SnapshotIndex?
    let previousPath: String?
    let maxSamples: Int
    var counts = [Int](repeating: 0, count: 5)
    var changedAttributes: [Int]
    var samples: [RecordChange] = []
    private var sampled = [RecordChange.Kind: Int]()

    init(index: SnapshotIndex?, previousPath: String?, attributes: Int, maxSamples: Int) {
        self.index = index
        self.previousPath = previousPath
        self.maxSamples = maxSamples
        changedAttributes = Array(repeating: 0, count: attributes)
    }

    func merge(_ changes: RowChanges, _ chunk: RecordChunk, _ entity: BoundEntity) {
        for r in 0 ..< chunk.count {
            let c = changes.classes[r]
            guard c != 0 else { continue }
            counts[c.trailingZeroBitCount] += 1
            let p = Int(changes.previous[r])
            var kind: RecordChange.Kind?
            var names = [String]()
            switch LifecycleScope(rawValue: c) {
            case .inserted: kind = .inserted
            case .updated:
                kind = .updated
                for a in changedAttributes.indices where changes.changed(r, a) {
                    changedAttributes[a] += 1
                    if sampled[.updated, default: 0] < maxSamples { names.append(entity.plan.attributes[a].name) }
                }
            case .deleted:
                kind = .deleted
                index?.deleted[p] = (FindingBuilder.key(entity, chunk, r), FindingBuilder.location(entity, chunk, r),
                                     FindingBuilder.identityKey(entity, chunk, r))
            default: break
            }
            if c != LifecycleScope.deleted.rawValue, p >= 0 { index?.seen[p] = true }
            if let kind, sampled[kind, default: 0] < maxSamples {
                sampled[kind, default: 0] += 1
                samples.append(RecordChange(kind: kind, key: FindingBuilder.key(entity, chunk, r),
                                            location: FindingBuilder.location(entity, chunk, r), attributes: names))
            }
        }
    }

    /// Deleted records from the index alone, when no rule needs them read again: their count,
    /// and samples located by line or rowid (keyed when the key is a single integer).
    func addDeleted(from index: SnapshotIndex, keyName: String?) {
        counts[2] = index.deletedCount
        var n = 0
        for p in 0 ..< index.count where index.isDeleted(p) && n < maxSamples {
            n += 1
            let value = index.table.locations[p]
            let ordinal = index.ordinals[p]
            let location = RecordLocation(path: index.displayPath, style: index.locationStyle, value: value, record: ordinal)
            var key: String?
            if let keyName, let v = index.table.integerKey(at: p) { key = "\(keyName)=\(v)" }
            samples.append(RecordChange(kind: .deleted, key: key, location: location))
        }
    }

    /// Adds the delete pass's tallies (deleted records and their samples).
    func absorb(_ other: LifecycleTally) {
        counts[2] += other.counts[2]
        samples += other.samples
    }

    func summary(_ entity: EntityPlan) -> LifecycleSummary {
        LifecycleSummary(previousPath: previousPath, previousRecords: index?.records ?? 0,
                         complete: index?.complete ?? true, inserted: counts[0], updated: counts[1],
                         deleted: counts[2], unchanged: counts[3], unclassified: counts[4],
                         changedAttributes: zip(entity.attributes, changedAttributes).filter { $0.1 > 0 }
                             .map { AttributeChanges(attribute: $0.0.name, records: $0.1) },
                         samples: samples)
    }
}
