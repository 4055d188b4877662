import Auditor
#if canImport(Glibc)
import Glibc
#endif

/// The ordinals of a pushed-down read of a heap table whose rows come in any order: a
/// parallel plan (``PostgresReader``) sends each row with its `ctid`, `(block,offset)`.
///
/// A serial scan (what streaming reads, `synchronize_seqscans` off) visits blocks from 0 and
/// each block's tuples by line pointer, so a record's ordinal is 1 + the number of rows at
/// smaller positions. A parallel scan hands each block whole to one process, which sends its
/// rows by line pointer too, and the processes' rows interleave. So a row's rank within its
/// block is 1 + the rows of that block seen before it, and the rows in earlier blocks are
/// summed from a count per block once the scan has ended. That order within a block is
/// checked, not assumed: a row at or before the last position seen in its block (sent twice,
/// or out of order) is refused, and the read fails rather than misnumber.
///
/// The rows to read as records are kept, and come out sorted by position with their ordinal
/// (``next(_:)``).
///
/// - Memory: 4 bytes per block (the count and the last offset seen: 80 KB per million rows of
///   150 bytes) and at most `memory` bytes of kept rows. Beyond that, the rows kept so far are
///   sorted and written as a run to an unnamed temporary file (`TMPDIR`, else `/tmp`; made
///   with `mkstemp` and unlinked at once, so nothing is left behind), and the runs are merged
///   when the rows are read.
package struct PostgresPositions {
    private let maxOffset: Int
    /// By block: the last offset seen << 16 | the rows seen.
    private var blocks: [UInt32]
    private let memory: Int
    private var arena: [UInt8] = []
    private var kept: [Row] = []
    private var spill: SpillFile?
    /// The sorted runs being merged, once noting has ended (``next(_:)``).
    private var runs: [Run]?
    /// Rows in the blocks before `block`: the ordinal of the next row read counts from there.
    private var block = 0, before: Int64 = 0
    /// Rows noted.
    package private(set) var rows = 0
    /// Sorted runs written to the temporary file.
    package var spilledRuns: Int { spill?.runs.count ?? 0 }

    /// `blockSize`: the server's `block_size` (a block holds at most
    /// `(blockSize - 24) / 28` tuples: page header, tuple header and line pointer); `blocks`:
    /// the table's blocks, to size the counts once (they grow if a later block comes);
    /// `memory`: the bytes of kept rows held before they spill.
    package init(blockSize: Int, blocks: Int = 0, memory: Int = 8 << 20) {
        maxOffset = min(Int(UInt16.max), max(1, (blockSize - 24) / 28))
        self.blocks = Array(repeating: 0, count: max(0, min(blocks, 1 << 32)))
        self.memory = max(1, memory)
    }

    /// The position `(block,offset)` a COPY text row starts with, as block << 16 | offset.
    package static func position(of row: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard row.count > 4, row[0] == UInt8(ascii: "(") else { return nil }
        var i = 1
        var block: UInt64 = 0, offset: UInt64 = 0
        var digits = 0
        while i < row.count, row[i] >= 0x30, row[i] <= 0x39, digits < 10 { block = block * 10 + UInt64(row[i] - 0x30); i += 1; digits += 1 }
        guard digits > 0, block <= UInt64(UInt32.max), i < row.count, row[i] == UInt8(ascii: ",") else { return nil }
        i += 1
        digits = 0
        while i < row.count, row[i] >= 0x30, row[i] <= 0x39, digits < 5 { offset = offset * 10 + UInt64(row[i] - 0x30); i += 1; digits += 1 }
        guard digits > 0, offset <= UInt64(UInt16.max), i < row.count, row[i] == UInt8(ascii: ")") else { return nil }
        return block << 16 | offset
    }

    /// Counts the row at `position`. - Returns: its rank in its block (1-based), or nil when
    /// it cannot be a line pointer of this block size, or does not come after the last row
    /// seen in its block (sent twice, or out of order: the ranks would be wrong).
    package mutating func note(_ position: UInt64) -> Int? {
        let block = Int(position >> 16), offset = UInt32(position & 0xFFFF)
        guard offset >= 1, offset <= maxOffset else { return nil }
        if block >= blocks.count { blocks.append(contentsOf: repeatElement(0, count: max(block + 1, blocks.count * 2) - blocks.count)) }
        let seen = blocks[block]
        guard offset > seen >> 16 else { return nil }
        blocks[block] = offset << 16 | ((seen & 0xFFFF) + 1)
        rows += 1
        return Int(seen & 0xFFFF) + 1
    }

    /// Keeps a copy of `row`, noted at `position` with `rank` (``note(_:)``), to read as a
    /// record; may write the rows kept so far to the temporary file.
    /// - Throws: `.io` when that file cannot be made or written.
    package mutating func keep(_ row: UnsafeBufferPointer<UInt8>, at position: UInt64, rank: Int) throws(AuditError) {
        kept.append(Row(position: position, rank: UInt64(rank), start: arena.count, count: row.count))
        arena.append(contentsOf: row)
        if arena.count >= memory { try writeRun() }
    }

    /// Sorts the rows kept in memory and appends them to the temporary file as one run,
    /// through a buffer of 64 KiB.
    private mutating func writeRun() throws(AuditError) {
        if spill == nil { spill = try SpillFile() }
        guard let spill else { return }
        kept.sort { $0.position < $1.position }
        let start = spill.size
        var out = [UInt8]()
        out.reserveCapacity(1 << 16)
        for row in kept {
            withUnsafeBytes(of: row.position.littleEndian) { out.append(contentsOf: $0) }
            withUnsafeBytes(of: (row.rank << 48 | UInt64(row.count)).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: arena[row.start ..< row.start + row.count])
            if out.count >= 1 << 16 {
                try spill.append(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        try spill.append(out)
        spill.runs.append((start, spill.size))
        kept.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with the next kept row, by position, and its ordinal (1-based among every
    /// row noted); nil once all have been read. Noting ends at the first call.
    /// - Throws: `.io` when the temporary file cannot be read.
    package mutating func next<R>(_ body: (Int64, UnsafeBufferPointer<UInt8>) -> R) throws(AuditError) -> R? {
        if runs == nil { try startReading() }
        guard let runs, let index = runs.indices.min(by: { runs[$0].position < runs[$1].position }),
              runs[index].position != .max else { return nil }
        let run = runs[index]
        let ordinal = self.before(Int(run.position >> 16)) + Int64(run.rank)
        let result = run.withHead { body(ordinal, $0) }
        try run.advance()
        return result
    }

    private mutating func startReading() throws(AuditError) {
        var made = [Run]()
        if let spill {
            if !kept.isEmpty { try writeRun() }
            for run in spill.runs { made.append(try Run(file: spill, from: run.start, to: run.end)) }
        } else {
            kept.sort { $0.position < $1.position }
            made.append(Run(bytes: arena, rows: kept))
        }
        arena = []
        kept = []
        runs = made
    }

    /// The rows noted in the blocks before `target`; targets must not decrease.
    private mutating func before(_ target: Int) -> Int64 {
        while block < target {
            if block < blocks.count { before += Int64(blocks[block] & 0xFFFF) }
            block += 1
        }
        return before
    }

    fileprivate struct Row {
        var position: UInt64
        /// Rank in its block, < 2^16.
        var rank: UInt64
        var start: Int
        var count: Int
    }
}

/// One sorted run of kept rows: in memory (the arena and its rows sorted by position), or a
/// stretch of the temporary file read through a buffer, each row there after its position
/// and its rank << 48 | its length. `position` and `rank` are the head row's; `position` is
/// `.max` once the run is read.
private final class Run {
    private(set) var position = UInt64.max
    private(set) var rank: UInt64 = 0
    private var bytes: [UInt8]
    private var head = 0, count = 0
    private let rows: [PostgresPositions.Row]
    private var next = 0
    private let file: SpillFile?
    private var offset: Int64, end: Int64
    /// Bytes of `bytes` holding file data, and those already handed out.
    private var filled = 0, used = 0

    init(bytes: [UInt8], rows: [PostgresPositions.Row]) {
        self.bytes = bytes
        self.rows = rows
        file = nil
        offset = 0
        end = 0
        advanceInMemory()
    }

    init(file: SpillFile, from start: Int64, to end: Int64) throws(AuditError) {
        bytes = []
        rows = []
        self.file = file
        offset = start
        self.end = end
        try advance()
    }

    func withHead<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[head ..< head + count])) }
    }

    func advance() throws(AuditError) {
        guard let file else { return advanceInMemory() }
        if used == filled, offset >= end {
            position = .max
            return
        }
        guard try fill(16, from: file) else {
            throw AuditError(.io, "the temporary file of a pushed-down read ended inside a row")
        }
        var length: UInt64 = 0
        bytes.withUnsafeBytes { raw in
            position = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: used, as: UInt64.self))
            length = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: used + 8, as: UInt64.self))
        }
        rank = length >> 48
        length &= (1 << 48) - 1
        guard length <= UInt64(Int.max / 2), try fill(16 + Int(length), from: file) else {
            throw AuditError(.io, "the temporary file of a pushed-down read ended inside a row")
        }
        head = used + 16
        count = Int(length)
        used += 16 + count
    }

    private func advanceInMemory() {
        guard next < rows.count else {
            position = .max
            return
        }
        (position, rank, head, count) = (rows[next].position, rows[next].rank, rows[next].start, rows[next].count)
        next += 1
    }

    /// Makes `need` bytes from `used` on available; false when the run ends first.
    private func fill(_ need: Int, from file: SpillFile) throws(AuditError) -> Bool {
        if filled - used >= need { return true }
        if offset >= end { return false }
        if used > 0 {
            bytes.withUnsafeMutableBufferPointer { b in
                _ = memmove(b.baseAddress!, b.baseAddress! + used, filled - used)
            }
            filled -= used
            used = 0
        }
        if bytes.count < max(need, 1 << 16) { bytes.append(contentsOf: repeatElement(0, count: max(need, 1 << 16) - bytes.count)) }
        let want = min(Int64(bytes.count - filled), end - offset)
        let got = try bytes.withUnsafeMutableBytes { raw in
            Result { () throws(AuditError) in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled ..< filled + Int(want)]), at: offset)
            }
        }.get()
        filled += got
        offset += Int64(got)
        return filled - used >= need
    }
}

/// An unnamed temporary file of sorted runs, closed when the last reference goes.
private final class SpillFile {
    private let fd: Int32
    private(set) var size: Int64 = 0
    /// The sorted runs written, as byte ranges.
    var runs: [(start: Int64, end: Int64)] = []

    init() throws(AuditError) {
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/auditor-rows-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw AuditError(.io, "cannot make a temporary file in \(folder) for the rows of a pushed-down read; set TMPDIR "
                             + "to a writable folder", cause: String(cString: strerror(errno)))
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends `bytes` (the file's offset only moves here; reads use `pread`).
    func append(_ bytes: [UInt8]) throws(AuditError) {
        if let failed = bytes.withUnsafeBytes({ StandardStream.write($0, to: fd) }) {
            throw AuditError(.io, "cannot write the rows of a pushed-down read to a temporary file; free space "
                             + "or set TMPDIR to another folder", cause: String(cString: strerror(failed)))
        }
        size += Int64(bytes.count)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(AuditError) -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + Int64(done)))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw AuditError(.io, "cannot read back the rows of a pushed-down read from its temporary file",
                                 cause: n < 0 ? String(cString: strerror(errno)) : "the file is shorter than written")
            }
            done += n
        }
        return done
    }
}
