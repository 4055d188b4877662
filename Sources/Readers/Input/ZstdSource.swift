import Auditor
import CZstdShim

/// The decompressed bytes of a zstd file, as `zstd -dc` writes them: every frame in turn
/// (skippable frames skipped), streamed with constant memory (the frame's window, at most
/// 128 MiB as the `zstd` tool allows by default, plus a 128 KiB input buffer).
///
/// A corrupt frame or a file that ends inside a frame throws ``AuditError`` `.malformedInput`
/// with the compressed byte offset, after every byte decoded before it was returned.
package final class ZstdSource: ByteSource {
    package var displayPath: String { raw.displayPath }
    package let compression = InputCompression.zstd
    package var rawBytesRead: Int64 { raw.rawBytesRead }
    package var totalBytes: Int64? { raw.totalBytes }
    package var watch: FileChangeWatch? { raw.watch }
    package var rawAtEnd: Bool { raw.rawAtEnd }
    /// Decompressed bytes returned so far.
    package private(set) var decompressedBytes: Int64 = 0

    private let raw: any ByteSource
    private let context: OpaquePointer
    private let input: UnsafeMutablePointer<UInt8>
    private let inputCapacity: Int
    private var inputPosition = 0
    private var inputSize = 0
    private var inputEnded = false
    /// True while a frame is open (its end not decoded and flushed yet).
    private var inFrame = true
    private var finished = false
    private var failure: AuditError?

    /// Starts decompressing `raw` (whose first bytes are a zstd frame).
    /// - Parameters:
    ///   - raw: The compressed bytes.
    ///   - inputCapacity: Compressed bytes read at a time (tests use 1).
    /// - Throws: ``AuditError`` `.malformedInput` when libzstd cannot be loaded (the message says
    ///   which package to install), `.io` when the context cannot be made (out of memory).
    package init(_ raw: any ByteSource, inputCapacity: Int? = nil) throws(AuditError) {
        self.raw = raw
        guard azstd_available() != 0 else {
            throw AuditError(.malformedInput, "the file is zstd-compressed, but "
                                 + String(cString: azstd_load_error()), location: raw.displayPath)
        }
        guard let context = azstd_create_dctx() else {
            throw AuditError(.io, "cannot start decompressing zstd data (out of memory)", location: raw.displayPath)
        }
        self.context = context
        self.inputCapacity = max(1, inputCapacity ?? azstd_dstream_in_size())
        input = .allocate(capacity: self.inputCapacity)
    }

    deinit {
        azstd_free_dctx(context)
        input.deallocate()
    }

    private var compressedOffset: Int64 { raw.rawBytesRead - Int64(inputSize - inputPosition) }

    package func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(AuditError) -> Int {
        if let failure { throw failure }
        guard count > 0, !finished else { return 0 }
        while true {
            if inputPosition == inputSize, !inputEnded {
                let n = try raw.read(into: input, count: inputCapacity)
                inputPosition = 0
                inputSize = n
                if n == 0 { inputEnded = true }
            }
            if inputPosition == inputSize, inputEnded, !inFrame {
                finished = true
                raw.close()
                return 0
            }
            var source = AZstdInBuffer(src: input, size: inputSize, pos: inputPosition)
            var target = AZstdOutBuffer(dst: buffer, size: count, pos: 0)
            let status = azstd_decompress_stream(context, &target, &source)
            inputPosition = source.pos
            let produced = target.pos
            decompressedBytes += Int64(produced)
            var error: AuditError?
            if azstd_is_error(status) != 0 {
                error = corrupt(String(cString: azstd_error_name(status)))
            } else {
                // 0: a frame ended and is flushed; the next byte, if any, starts another frame.
                inFrame = status != 0
                if inFrame, produced == 0, inputPosition == inputSize, inputEnded { error = truncated() }
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
            if !inFrame, inputPosition < inputSize { inFrame = true }
        }
    }

    package func close() {
        finished = true
        raw.close()
    }

    private func truncated() -> AuditError {
        compression.truncated(at: compressedOffset, after: decompressedBytes, in: displayPath)
    }

    private func corrupt(_ detail: String) -> AuditError {
        compression.corrupt("corrupt zstd data", at: compressedOffset, after: decompressedBytes, detail: detail, in: displayPath)
    }
}
