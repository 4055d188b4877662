import Auditor
import CZlib

/// The decompressed bytes of a gzip file, as `gzip -dc` writes them: every member of a
/// concatenated file (`cat a.gz b.gz`) in turn, streamed through a 256 KiB input buffer with
/// constant memory whatever the data inflates to.
///
/// A corrupt member, bytes after the last member that are not another member, or a file that
/// ends inside a member throw ``AuditError`` `.malformedInput` with the compressed byte offset,
/// after every byte decoded before it was returned.
package final class GzipSource: ByteSource {
    package var displayPath: String { raw.displayPath }
    package let compression = InputCompression.gzip
    package var rawBytesRead: Int64 { raw.rawBytesRead }
    package var totalBytes: Int64? { raw.totalBytes }
    package var watch: FileChangeWatch? { raw.watch }
    package var rawAtEnd: Bool { raw.rawAtEnd }
    /// Decompressed bytes returned so far.
    package private(set) var decompressedBytes: Int64 = 0

    private let raw: any ByteSource
    /// The z_stream, at a fixed address (zlib checks that it does not move).
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutablePointer<UInt8>
    private let inputCapacity: Int
    private var inputEnded = false
    /// The last member ended and no byte follows it yet.
    private var betweenMembers = false
    private var finished = false
    /// An error found after some output: thrown by the next call.
    private var failure: AuditError?

    /// Starts inflating `raw` (whose first bytes are a gzip header).
    /// - Parameters:
    ///   - raw: The compressed bytes.
    ///   - inputCapacity: Compressed bytes read at a time (tests use 1).
    /// - Throws: ``AuditError`` `.io` when zlib cannot be initialised (out of memory).
    package init(_ raw: any ByteSource, inputCapacity: Int = 1 << 18) throws(AuditError) {
        self.raw = raw
        self.inputCapacity = max(1, inputCapacity)
        input = .allocate(capacity: self.inputCapacity)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 16: a gzip wrapper (not zlib or raw deflate), the largest window.
        let status = inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            input.deallocate()
            throw AuditError(.io, "cannot start decompressing gzip data (zlib error \(status))", location: raw.displayPath)
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
    }

    /// The compressed byte offset zlib has reached.
    private var compressedOffset: Int64 { raw.rawBytesRead - Int64(stream.pointee.avail_in) }

    package func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(AuditError) -> Int {
        if let failure { throw failure }
        guard count > 0, !finished else { return 0 }
        while true {
            if stream.pointee.avail_in == 0, !inputEnded {
                let n = try raw.read(into: input, count: inputCapacity)
                if n == 0 {
                    inputEnded = true
                } else {
                    stream.pointee.next_in = input
                    stream.pointee.avail_in = UInt32(n)
                }
            }
            if betweenMembers {
                if stream.pointee.avail_in == 0, inputEnded {
                    finished = true
                    raw.close()
                    return 0
                }
                // Another member follows (as `cat a.gz b.gz` makes): inflate it too.
                inflateReset(stream)
                betweenMembers = false
            }
            stream.pointee.next_out = buffer
            stream.pointee.avail_out = UInt32(min(count, Int(UInt32.max)))
            let status = inflate(stream, Z_NO_FLUSH)
            let produced = min(count, Int(UInt32.max)) - Int(stream.pointee.avail_out)
            decompressedBytes += Int64(produced)
            var error: AuditError?
            switch status {
            case Z_OK:
                break
            case Z_STREAM_END:
                betweenMembers = true
            case Z_BUF_ERROR:
                // No progress: zlib needs input, and the file has none left.
                if stream.pointee.avail_in == 0, inputEnded, produced == 0 {
                    error = truncated()
                }
            default:
                error = corrupt(status)
            }
            if let error {
                finished = true
                raw.close()
                if produced > 0 {
                    failure = error
                    return produced
                }
                throw error
            }
            if produced > 0 { return produced }
        }
    }

    package func close() {
        finished = true
        raw.close()
    }

    private func truncated() -> AuditError {
        compression.truncated(at: compressedOffset, after: decompressedBytes, in: displayPath)
    }

    private func corrupt(_ status: Int32) -> AuditError {
        let detail = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
        let what = decompressedBytes == 0 && compressedOffset < 16 ? "not valid gzip data" : "corrupt gzip data"
        return compression.corrupt(what, at: compressedOffset, after: decompressedBytes, detail: detail, in: displayPath)
    }
}
