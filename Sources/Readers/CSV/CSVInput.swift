#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Auditor

/// An input read through a ``ByteSource`` (a file, gzip, zstd or standard input) into one
/// reusable buffer.
///
/// The buffer holds the bytes `[0, end)`; the reader consumes them from the front and calls
/// ``refill(keepingFrom:)`` when a record runs past `end`, which moves the unconsumed tail
/// to the front and reads more. Memory stays at ``initialCapacity`` unless one record is
/// larger than half of it (the buffer then doubles, up to ``CSVLimits/maxRecordBytes``).
/// Offsets and lines are those of the (decompressed) text.
final class CSVInput {
    /// Bytes per buffer (1 MiB): large enough that refills are rare, small enough for the cache.
    static let initialCapacity = 1 << 20

    let displayPath: String
    /// The input's size when it is a regular file (compressed size for a compressed file).
    var totalBytes: Int64? { source.totalBytes }
    /// The buffer. Mutable because quoted fields with doubled quotes are unescaped in place.
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// One past the last valid byte.
    private(set) var end = 0
    /// True once the source reported its end: `[0, end)` is all that is left.
    private(set) var atEOF = false
    /// The text offset of `base[0]`.
    private(set) var fileOffset: Int64 = 0
    /// Bytes read from the file so far (compressed bytes for a compressed input; the file's
    /// size once the whole file was read, unless it changed).
    var bytesFromFile: Int64 { source.rawBytesRead }
    /// The file as opened, to tell at the end whether it changed while it was read (nil for
    /// standard input).
    var watch: FileChangeWatch? { source.watch }
    /// The stream of the input's (decompressed) bytes.
    let source: any ByteSource

    /// Opens a file (or standard input for `-`) for reading; gzip and zstd are decompressed.
    /// - Parameters:
    ///   - path: The path to open.
    ///   - displayPath: The path as messages show it.
    ///   - capacity: The buffer size in bytes.
    /// - Throws: ``AuditError`` `.missingInput` when the path does not exist, is a directory or
    ///   cannot be opened; `.malformedInput` for a compression auditor does not read.
    convenience init(path: String, displayPath: String, capacity: Int = CSVInput.initialCapacity) throws {
        try self.init(source: ByteSources.open(path: path, displayPath: displayPath), capacity: capacity)
    }

    /// Reads `source` (the input takes it over).
    init(source: any ByteSource, capacity: Int = CSVInput.initialCapacity) {
        self.source = source
        displayPath = source.displayPath
        self.capacity = max(capacity, 4)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        closeDescriptor()
        base.deallocate()
    }

    /// Moves `[start, end)` to the front of the buffer and reads more (see ``compact(keepingFrom:)``
    /// and ``readMore()``).
    /// - Returns: How far the kept bytes moved towards the front (subtract it from positions).
    /// - Throws: ``AuditError`` `.io` when `read(2)` fails; the move has happened by then.
    func refill(keepingFrom start: Int) throws(AuditError) -> Int {
        let shift = compact(keepingFrom: start)
        try readMore()
        return shift
    }

    /// Moves `[start, end)` to the front of the buffer, first doubling the buffer when the kept
    /// bytes fill more than half of it (so that a long record is rescanned only O(log n) times).
    /// ``base`` may change.
    /// - Parameter start: The first byte to keep (the start of an incomplete record).
    /// - Returns: How far the kept bytes moved towards the front (subtract it from positions).
    /// - Complexity: O(`end - start`).
    func compact(keepingFrom start: Int) -> Int {
        let kept = end - start
        if start > 0, kept > 0 {
            memmove(base, base + start, kept)  // the regions may overlap
        }
        end = kept
        fileOffset += Int64(start)
        if kept * 2 > capacity {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            grown.update(from: base, count: kept)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        return start
    }

    /// Hands the buffer over to the caller and goes on in `fresh`, which then holds
    /// `[start, end)` at its front, so that the bytes before `start` need no copy: the morsel
    /// path parses them in the old buffer on another thread.
    /// - Parameters:
    ///   - start: The first byte to keep (the start of the records not cut yet).
    ///   - fresh: The new buffer, of `freshCapacity` bytes (at least `end - start`); the input takes it over.
    /// - Returns: The old buffer and its size; the caller takes it over.
    /// - Complexity: O(`end - start`).
    func detach(keepingFrom start: Int, into fresh: UnsafeMutablePointer<UInt8>,
                capacity freshCapacity: Int) -> (buffer: UnsafeMutablePointer<UInt8>, capacity: Int) {
        let old = (base, capacity)
        let kept = end - start
        precondition(freshCapacity >= kept, "the new buffer must hold the kept bytes")
        fresh.update(from: base + start, count: kept)
        base = fresh
        capacity = freshCapacity
        end = kept
        fileOffset += Int64(start)
        return old
    }

    /// Reads once into the free space after `end`: at least one byte, or sets ``atEOF``.
    /// - Throws: ``AuditError`` `.io` when reading fails, `.malformedInput` for a corrupt or
    ///   truncated compressed stream.
    func readMore() throws(AuditError) {
        guard !atEOF else { return }
        let n = try source.read(into: base + end, count: capacity - end)
        if n > 0 {
            end += n
        } else {
            atEOF = true
            source.close()
        }
    }

    /// Reads until the buffer is full, a read returns less than asked, or the file ends (the
    /// several-thread path reads whole blocks).
    ///
    /// It stops at a short read rather than probing for the end of the file: like
    /// ``readMore()``, it learns about the end only from a read that returns nothing, so that
    /// a record still open at the buffer's end is judged as the one-thread path judges it (too
    /// long, rather than unterminated, when the file goes on past the record limit).
    /// - Throws: ``AuditError`` `.io` when `read(2)` fails; the bytes read before stay in the buffer.
    func fill() throws(AuditError) {
        while end < capacity, !atEOF {
            let asked = capacity - end
            let before = end
            try readMore()
            if end - before < asked { return }
        }
    }

    /// Grows the buffer to at least `minimum` bytes, keeping `[0, end)`. ``base`` may change.
    /// - Complexity: O(`end`) when it grows.
    func reserve(_ minimum: Int) {
        guard minimum > capacity else { return }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: minimum)
        grown.update(from: base, count: end)
        base.deallocate()
        base = grown
        capacity = minimum
    }

    /// Closes the file early (after the last read, or when the reader is finished).
    func closeDescriptor() {
        source.close()
    }

    /// The text of an `errno` value.
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
