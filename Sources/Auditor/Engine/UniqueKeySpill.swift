import Foundation

/// Thrown by ``EntityAccumulator/merge(_:)`` when the unique key sets outgrow the memory limit.
struct KeySetsOverBudget: Error {
    /// The bytes the key sets held.
    var bytes: Int
    /// Records up to this ordinal already went to the finding sink.
    var sentToSink: Int
}

/// Hash-partitioned files of keys on disk, for key sets that do not fit the memory limit
/// (`--memory-limit`, issue 20): per stream (a key rule, a key set), 256 partition files of
/// (ordinal, location, key) records, appended through 64 KiB buffers and read back one
/// partition at a time, so that resolving holds about 1/256 of a key set.
///
/// Files live in a folder of their own under `$TMPDIR` (mode 0700), removed with this object.
final class KeyPartitions {
    static let count = 256
    /// A partition's buffer is appended to its file once it holds this many bytes.
    private static let flushBytes = 1 << 16
    let directory: String
    private var buffers: [[[UInt8]]]                // by stream, by partition
    private(set) var failure: (any Error)?

    init(streams: Int) throws {
        directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("auditor-spill-" + UUID().uuidString)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw AuditError(.io, "cannot create a folder to spill key sets to: \(error.localizedDescription); "
                                 + "set TMPDIR to a writable folder with room, or raise --memory-limit", location: directory)
        }
        buffers = Array(repeating: Array(repeating: [], count: Self.count), count: streams)
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

    /// Appends a record to `key`'s partition of `stream` (a failed write is kept in ``failure``).
    func add(_ stream: Int, ordinal: Int64, location: Int64, key: KeyValue) {
        let p = Self.partition(key)
        Self.append(&buffers[stream][p], ordinal)
        Self.append(&buffers[stream][p], location)
        switch key {
        case .integer(let v):
            buffers[stream][p].append(0)
            Self.append(&buffers[stream][p], v)
        case .bytes(let b):
            buffers[stream][p].append(1)
            Self.append(&buffers[stream][p], Int64(b.count))
            buffers[stream][p].append(contentsOf: b)
        }
        if buffers[stream][p].count >= Self.flushBytes {
            flush(&buffers[stream][p], to: path(stream, p))
        }
    }

    /// Writes what `stream`'s buffers hold (before its partitions are read).
    func finish(_ stream: Int) throws {
        for p in 0 ..< Self.count { flush(&buffers[stream][p], to: path(stream, p)) }
        if let failure { throw failure }
    }

    /// Calls `body` with each (ordinal, location, key) record of a partition, in order.
    func forEachRecord(_ stream: Int, partition p: Int, _ body: (Int64, Int64, KeyValue) -> Void) throws {
        let records = try read(path(stream, p))
        try Self.forEachRecord(records, body)
    }

    /// Resolves a stream one partition at a time: `scan` reads partition `p` (and whatever
    /// else it needs) and emits (ordinal, value) records in input order, which are written
    /// to a file of their own, per partition, and read back through the returned cursor. Each
    /// partition's file is removed once scanned.
    func cursor(_ stream: Int, named name: String,
                _ scan: (_ p: Int, _ emit: (Int64, Int64) -> Void) throws -> Void) throws -> DuplicateCursor {
        try finish(stream)
        let out = (directory as NSString).appendingPathComponent(name)
        var segments = [(start: Int, end: Int)]()
        var written = 0
        var records = [UInt8]()
        for p in 0 ..< Self.count {
            let start = written
            try scan(p) { ordinal, value in
                Self.append(&records, ordinal)
                Self.append(&records, value)
            }
            try? FileManager.default.removeItem(atPath: path(stream, p))
            written += records.count
            flush(&records, to: out)
            segments.append((start, written))
        }
        if let failure { throw failure }
        return try DuplicateCursor(path: out, segments: segments)
    }

    private func path(_ stream: Int, _ p: Int) -> String { "\(directory)/keys-\(stream)-\(p)" }

    /// Appends `buffer` to the file at `path` and empties it.
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

/// The keys of an entity's unique rules on disk, for key sets that do not fit the memory
/// limit (`--memory-limit`, issue 20).
///
/// While the input is read, each key goes with its record's ordinal and location to one of
/// 256 hash partitions (``add(_:)``). ``resolve()`` then reads one partition at a time, so it
/// holds about 1/256 of the key set, and writes each rule's duplicates: the records whose key
/// occurred in an earlier record, with that record's location, in input order per partition.
/// The audit's own pass then asks a ``DuplicateCursor`` instead of a key set. Same records,
/// same first locations, so the same report as in memory.
final class UniqueKeySpill {
    private let files: KeyPartitions
    private let streams: [Int: Int]                 // key rule → stream

    init(keyRules: [Int]) throws {
        files = try KeyPartitions(streams: keyRules.count)
        streams = Dictionary(uniqueKeysWithValues: keyRules.enumerated().map { ($1, $0) })
    }

    /// Writes a merged chunk's unique keys (chunks in input order).
    func add(_ ev: ChunkEvaluation) throws {
        let chunk = ev.chunk
        for (k, keys) in ev.uniqueKeys {
            guard let s = streams[k] else { continue }
            keys.forEach { row, key in
                files.add(s, ordinal: Int64(chunk.ordinal(Int(row))), location: chunk.locations[Int(row)], key: key)
            }
        }
        if let failure = files.failure { throw failure }
    }

    /// Each rule's duplicate records, one partition at a time.
    func resolve() throws -> [Int: DuplicateCursor] {
        var cursors = [Int: DuplicateCursor]()
        for (k, s) in streams.sorted(by: { $0.key < $1.key }) {
            cursors[k] = try files.cursor(s, named: "duplicates-\(k)") { p, emit in
                var table = UniqueKeys()
                try files.forEachRecord(s, partition: p) { ordinal, location, key in
                    if let first = table.insert(key, location: location) { emit(ordinal, first) }
                }
            }
        }
        return cursors
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

    /// - Parameter path: The file of the records, which an empty list never wrote.
    init(path: String, segments: [(start: Int, end: Int)]) throws {
        if segments.allSatisfy({ $0.start == $0.end }) {
            fd = -1
        } else {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw AuditError(.io, "cannot read the spilled key sets back", location: path) }
            unlink(path)                        // freed when closed
        }
        next = segments.map(\.start)
        ends = segments.map(\.end)
        buffered = Array(repeating: [], count: segments.count)
        position = Array(repeating: 0, count: segments.count)
    }

    deinit { if fd >= 0 { close(fd) } }

    /// The first location of `key`'s earlier occurrence, if the record at `ordinal` repeats
    /// it. Ordinals must be asked in increasing order.
    func first(at ordinal: Int, key: KeyValue) -> Int64? {
        let p = KeyPartitions.partition(key)
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
            stride(from: 0, to: count, by: 16).map { (KeyPartitions.int64(b, $0), KeyPartitions.int64(b, $0 + 8)) }
        }
        position[p] = 0
        return true
    }
}
