import Foundation

/// A referenced key set that outgrew the memory limit (`--memory-limit`, issue 20): the keys
/// of a parent entity that other entities reference, in 256 hash partitions on disk instead
/// of a ``KeyTable`` in memory.
///
/// The parent's pass writes them (``add(_:)``) from the moment its key tables pass the limit
/// on. A child that references them cannot look keys up one by one; it reads its own keys
/// into the same partitions first (``ReferenceSpill``), and its audit pass then asks which of
/// its records dangle.
///
/// Written on the audit thread during the parent's pass, read on the audit thread after it:
/// `@unchecked Sendable` like the ``KeyTable`` that carries it.
package final class SpilledKeySet: @unchecked Sendable {
    private let files: KeyPartitions
    private var finished = false
    /// The bytes the key tables held when they were spilled.
    let bytes: Int

    init(bytes: Int) throws {
        files = try KeyPartitions(streams: 1)
        self.bytes = bytes
    }

    func add(_ key: KeyValue) {
        files.add(0, ordinal: 0, location: 0, key: key)
    }

    /// The error of a failed write, if any.
    var failure: (any Error)? { files.failure }

    /// Calls `body` with each key of a partition.
    func forEachKey(partition p: Int, _ body: (KeyValue) -> Void) throws {
        if !finished {
            try files.finish(0)
            finished = true
        }
        try files.forEachRecord(0, partition: p) { _, _, key in body(key) }
    }
}

/// The keys of an entity's references to spilled key sets (``SpilledKeySet``), partitioned
/// as the parents' keys are. ``resolve()`` reads one partition of a parent and of the child at
/// a time, and writes the child's records whose key the parent does not have, in input order
/// per partition. The audit's own pass then asks a ``DuplicateCursor`` which records dangle:
/// the records the in-memory lookup would have found, so the same report.
final class ReferenceSpill {
    private let files: KeyPartitions
    private let parents: [(keyRule: Int, keys: SpilledKeySet)]

    /// - Parameter parents: Per reference key rule to a spilled set: that set.
    init(parents: [Int: SpilledKeySet]) throws {
        self.parents = parents.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        files = try KeyPartitions(streams: parents.count)
    }

    /// Writes a merged chunk's keys of references to spilled sets (chunks in input order).
    func add(_ ev: ChunkEvaluation) throws {
        let chunk = ev.chunk
        for (k, keys) in ev.spilledReferences {
            guard let s = parents.firstIndex(where: { $0.keyRule == k }) else { continue }
            keys.forEach { row, key in
                files.add(s, ordinal: Int64(chunk.ordinal(Int(row))), location: 0, key: key)
            }
        }
        if let failure = files.failure { throw failure }
    }

    /// Per reference key rule: its dangling records (a cursor whose `first(at:key:)` is not
    /// nil for them).
    func resolve() throws -> [Int: DuplicateCursor] {
        var cursors = [Int: DuplicateCursor]()
        for (s, parent) in parents.enumerated() {
            cursors[parent.keyRule] = try files.cursor(s, named: "dangling-\(parent.keyRule)") { p, emit in
                let table = KeyTable()
                try parent.keys.forEachKey(partition: p) { _ = table.insert($0, location: 0) }
                try files.forEachRecord(s, partition: p) { ordinal, _, key in
                    if table.index(of: key) == nil { emit(ordinal, 0) }
                }
            }
        }
        return cursors
    }
}
