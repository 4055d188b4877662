import Foundation

/// Thrown by ``EntityAccumulator/merge(_:)`` when the unique key sets outgrow the memory limit.
struct KeySetsOverBudget: Error {
    /// The bytes the key sets held.
    var bytes: Int
    /// Records up to this ordinal already went to the finding sink.
    var sentToSink: Int
}

/// The keys of an entity's unique rules on disk, for key sets that do not fit the memory
/// limit (`--memory-limit`, issue 20).
///
/// While the input is read, each key goes with its record's ordinal and location to one of
/// 256 hash partitions (``add(_:)``). ``resolve()`` then reads one partition at a time, so it
/// holds about 1/256 of the key set, and writes each rule's duplicates: the records whose key
/// occurred in an earlier record, with that record's location, in input order per partition.
/// The audit's own pass then asks a ``DuplicateCursor`` instead of a key set. Same records,
/// same first locations, so the same report as in memory.
///
/// Files live in a folder of their own under `$TMPDIR` (mode 0700), removed once resolved
/// (the duplicates file stays open, unlinked) or when the spill ends.
final class UniqueKeySpill {
    static let partitions = 256
    /// A partition's buffer is appended to its file once it holds this many bytes.
    private static let flushBytes = 1 << 16
    private let directory: String
    private var buffers: [Int: [[UInt8]]] = [:]       // by key rule, by partition
    private var failure: (any Error)?

    init(keyRules: [Int]) throws {
        directory = NSTemporaryDirectory() + "/auditor-spill-" + UUID().uuidString
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw AuditError(.io, "cannot create a folder to spill key sets to: \(error.localizedDescription); "
                                 + "set TMPDIR to a writable folder with room, or raise --memory-limit", location: directory)
        }
        for k in keyRules { buffers[k] = Array(repeating: [], count: Self.partitions) }
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A key's partition: bits 28–35 of its hash, which the tables that resolve a partition do
    /// not use for its slots (``UniqueKeys`` takes the top bits, ``KeyTable`` the low ones up
    /// to its size). Bits they share would be equal for all of a partition's keys and crowd a
    /// fraction of the table (the top 8 bits did: 60 % of a spilled 1M-row audit).
    static func partition(_ key: KeyValue) -> Int {
        switch key {
        case .integer(let v): return Int(truncatingIfNeeded: (KeyTable.hash(v) >> 28) & 0xFF)
        case .bytes(let b): return Int(truncatingIfNeeded: (KeyTable.hash(b) >> 28) & 0xFF)
        }
    }

    /// Writes a merged chunk's unique keys (chunks in input order).
    func add(_ ev: ChunkEvaluation) throws {
        let chunk = ev.chunk
        for (k, keys) in ev.uniqueKeys {
            guard var parts = buffers.removeValue(forKey: k) else { continue }
            keys.forEach { row, key in
                let p = Self.partition(key)
                Self.append(&parts[p], Int64(chunk.ordinal(Int(row))))
                Self.append(&parts[p], chunk.locations[Int(row)])
                switch key {
                case .integer(let v):
                    parts[p].append(0)
                    Self.append(&parts[p], v)
                case .bytes(let b):
                    parts[p].append(1)
                    Self.append(&parts[p], Int64(b.count))
                    parts[p].append(contentsOf: b)
                }
                if parts[p].count >= Self.flushBytes {
                    flush(&parts[p], to: path(k, p))
                }
            }
            buffers[k] = parts
        }
        if let failure { throw failure }
    }

    /// Each rule's duplicate records, one partition at a time.
    func resolve() throws -> [Int: DuplicateCursor] {
        var cursors = [Int: DuplicateCursor]()
        for k in buffers.keys.sorted() {
            var parts = buffers.removeValue(forKey: k) ?? []
            for p in parts.indices { flush(&parts[p], to: path(k, p)) }
            if let failure { throw failure }
            let out = "\(directory)/duplicates-\(k)"
            var segments = [(start: Int, end: Int)]()
            var written = 0
            var duplicates = [UInt8]()
            for p in 0 ..< Self.partitions {
                let start = written
                let records = try read(path(k, p))
                try? FileManager.default.removeItem(atPath: path(k, p))
                var table = UniqueKeys()
                try Self.forEachRecord(records) { ordinal, location, key in
                    if let first = table.insert(key, location: location) {
                        Self.append(&duplicates, ordinal)
                        Self.append(&duplicates, first)
                    }
                }
                written += duplicates.count
                flush(&duplicates, to: out)
                segments.append((start, written))
            }
            if let failure { throw failure }
            cursors[k] = try DuplicateCursor(path: out, segments: segments)
        }
        try? FileManager.default.removeItem(atPath: directory)
        return cursors
    }

    private func path(_ k: Int, _ p: Int) -> String { "\(directory)/keys-\(k)-\(p)" }

    private func flush(_ buffer: inout [UInt8], to path: String) {
        guard !buffer.isEmpty, failure == nil else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        var ok = fd >= 0
        if ok {
            ok = buffer.withUnsafeBytes { b in
                var done = 0
                while done < b.count {
                    let n = write(fd, b.baseAddress! + done, b.count - done)
                    if n < 0, errno == EINTR { continue }
                    if n <= 0 { return false }
                    done += n
                }
                return true
            }
            close(fd)
        }
        if !ok {
            failure = AuditError(.io, "cannot write the spilled key sets: \(String(cString: strerror(errno))); "
                                     + "give TMPDIR a folder with room, or raise --memory-limit", location: path)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private func read(_ path: String) throws -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AuditError(.io, "cannot read the spilled key sets back", location: path)
        }
        return [UInt8](data)
    }

    static func append(_ buffer: inout [UInt8], _ v: Int64) {
        withUnsafeBytes(of: v.littleEndian) { buffer.append(contentsOf: $0) }
    }

    static func int64(_ b: UnsafeRawBufferPointer, _ at: Int) -> Int64 {
        Int64(littleEndian: b.loadUnaligned(fromByteOffset: at, as: Int64.self))
    }

    /// Calls `body` with each (ordinal, location, key) record of a partition file, in order.
    private static func forEachRecord(_ records: [UInt8], _ body: (Int64, Int64, KeyValue) -> Void) throws {
        try records.withUnsafeBytes { b in
            var at = 0
            while at < b.count {
                guard at + 17 <= b.count else { throw AuditError(.internal, "a spilled key file is cut short") }
                let ordinal = int64(b, at), location = int64(b, at + 8)
                let tag = b[at + 16]
                at += 17
                guard at + 8 <= b.count else { throw AuditError(.internal, "a spilled key file is cut short") }
                let v = int64(b, at)
                at += 8
                if tag == 0 {
                    body(ordinal, location, .integer(v))
                } else {
                    let n = Int(v)
                    guard n >= 0, at + n <= b.count else { throw AuditError(.internal, "a spilled key file is cut short") }
                    let bytes = b.bindMemory(to: UInt8.self)
                    body(ordinal, location, .bytes(UnsafeBufferPointer(rebasing: bytes[at ..< at + n])))
                    at += n
                }
            }
        }
    }
}

/// One unique rule's spilled duplicates: per hash partition, the (ordinal, first location)
/// of each record whose key occurred earlier, in input order. Asked in input order, it reads
/// each partition's list forward through a small buffer, so it holds little whatever the
/// number of duplicates.
final class DuplicateCursor {
    private let fd: Int32
    private var next: [Int]                     // per partition: file offset of the next record
    private let ends: [Int]
    private var buffered: [[(ordinal: Int64, first: Int64)]]
    private var position: [Int]
    private(set) var failure: (any Error)?
    private static let batch = 256              // records per read (4 KiB)

    init(path: String, segments: [(start: Int, end: Int)]) throws {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw AuditError(.io, "cannot read the spilled key sets back", location: path) }
        unlink(path)                            // freed when closed
        next = segments.map(\.start)
        ends = segments.map(\.end)
        buffered = Array(repeating: [], count: segments.count)
        position = Array(repeating: 0, count: segments.count)
    }

    deinit { close(fd) }

    /// The first location of `key`'s earlier occurrence, if the record at `ordinal` repeats
    /// it. Ordinals must be asked in increasing order.
    func first(at ordinal: Int, key: KeyValue) -> Int64? {
        let p = UniqueKeySpill.partition(key)
        while true {
            if position[p] == buffered[p].count, !refill(p) { return nil }
            let head = buffered[p][position[p]]
            if head.ordinal > Int64(ordinal) { return nil }
            position[p] += 1
            if head.ordinal == Int64(ordinal) { return head.first }
        }
    }

    private func refill(_ p: Int) -> Bool {
        let count = min(Self.batch * 16, ends[p] - next[p])
        guard count > 0, failure == nil else { return false }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(next[p])) }
        guard n == count else {
            failure = AuditError(.io, "cannot read the spilled key sets back: \(String(cString: strerror(errno)))")
            return false
        }
        next[p] += count
        buffered[p] = bytes.withUnsafeBytes { b in
            stride(from: 0, to: count, by: 16).map { (UniqueKeySpill.int64(b, $0), UniqueKeySpill.int64(b, $0 + 8)) }
        }
        position[p] = 0
        return true
    }
}
