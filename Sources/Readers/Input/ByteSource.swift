import Auditor

/// How an input's bytes are stored, as its first bytes say (never its name).
package enum InputCompression: String, Sendable {
    case none
    case gzip
    case zstd

    /// The compression of a stream that starts with `prefix`, or nil when it is not compressed.
    /// gzip is `1f 8b`; zstd frames are `28 b5 2f fd` (a zstd stream may also start with a
    /// skippable frame, `5?  2a 4d 18`).
    static func detect(_ prefix: [UInt8]) -> InputCompression? {
        if prefix.count >= 2, prefix[0] == 0x1F, prefix[1] == 0x8B { return .gzip }
        if prefix.count >= 4, prefix[1] == 0xB5, prefix[2] == 0x2F, prefix[3] == 0xFD, prefix[0] == 0x28 { return .zstd }
        if prefix.count >= 4, prefix[0] & 0xF0 == 0x50, prefix[1] == 0x2A, prefix[2] == 0x4D, prefix[3] == 0x18 { return .zstd }
        return nil
    }

    /// The name of a compression or archive format auditor does not read, from its magic
    /// bytes, with the command that undoes it; nil for anything else.
    static func unsupported(_ prefix: [UInt8]) -> (name: String, fix: String)? {
        func starts(_ magic: [UInt8]) -> Bool { prefix.count >= magic.count && Array(prefix[..<magic.count]) == magic }
        if starts([0x42, 0x5A, 0x68]) { return ("bzip2", "bunzip2 -k FILE") }
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return ("xz", "xz -dk FILE") }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return ("zip", "unzip FILE") }
        if starts([0x04, 0x22, 0x4D, 0x18]) { return ("lz4", "lz4 -d FILE") }
        if starts([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return ("7z", "7z x FILE") }
        return nil
    }
}

/// A sequential stream of an input's bytes (decompressed when the input is compressed): what
/// the text readers (CSV, XML, JSON Lines) read through, so that each of them reads plain
/// files, gzip, zstd and standard input alike.
///
/// Open one with ``ByteSources/open(path:displayPath:)``. An implementation:
/// - returns bytes in order from ``read(into:count:)``, `0` only at the end (and every call after);
/// - throws ``AuditError`` `.malformedInput` for a corrupt or truncated compressed stream, with
///   the compressed byte offset, after having returned every byte decoded before it;
/// - counts in ``rawBytesRead`` the bytes taken from the file or pipe (compressed bytes for a
///   compressed input), which is what progress shows against ``totalBytes``.
/// Sources are not `Sendable`: one reader owns one and uses it from one thread at a time.
package protocol ByteSource: AnyObject {
    /// The input as messages show it.
    var displayPath: String { get }
    /// How the input is stored.
    var compression: InputCompression { get }
    /// Bytes read from the file or pipe so far (compressed bytes for a compressed input).
    var rawBytesRead: Int64 { get }
    /// The file's size when it is a regular file (nil for standard input).
    var totalBytes: Int64? { get }
    /// The file as opened, to tell at the end whether it changed (nil for standard input).
    var watch: FileChangeWatch? { get }
    /// True once the raw input was read to its end.
    var rawAtEnd: Bool { get }
    /// Reads up to `count` bytes into `buffer`.
    /// - Returns: The bytes written, at least 1 when `count > 0`, or 0 at the end.
    /// - Throws: ``AuditError`` `.io` when reading fails, `.malformedInput` for a corrupt or
    ///   truncated compressed stream.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(AuditError) -> Int
    /// Closes the input early; later reads return 0.
    func close()
}

extension ByteSource {
    /// ``ByteSource/rawBytesRead`` when every raw byte was read, for ``FileChangeWatch/check(bytesRead:)``.
    package var rawBytesReadToEnd: Int64? { rawAtEnd ? rawBytesRead : nil }

    /// The text after the path in messages about decompressed text: ` (gzip-compressed)`.
    package var compressionNote: String {
        compression == .none ? "" : " (\(compression.rawValue)-compressed)"
    }
}

/// Opens inputs as ``ByteSource``s.
package enum ByteSources {
    /// The path that names standard input (`--source people=-`).
    package static let standardInput = "-"

    /// Opens a file, or standard input for `-`, and decompresses it when its first bytes are
    /// gzip or zstd (whatever its name); a compressed input is decompressed on a thread of
    /// its own, ahead of the reader (``ReadAheadSource``), so that parsing overlaps it.
    /// - Parameters:
    ///   - path: The file, or `-`.
    ///   - displayPath: The input as messages show it.
    /// - Returns: The stream of the input's (decompressed) bytes.
    /// - Throws: ``AuditError`` `.missingInput` when the file cannot be opened or is a
    ///   directory; `.malformedInput` for bzip2, xz, zip, lz4 or 7z data (with the command
    ///   that decompresses it); `.io` when the first read fails.
    package static func open(path: String, displayPath: String) throws(AuditError) -> any ByteSource {
        let raw = try FileSource(path: path, displayPath: displayPath)
        let prefix = try raw.peek(6)
        if let (name, fix) = InputCompression.unsupported(prefix) {
            raw.close()
            throw AuditError(.malformedInput, "the input is \(name)-compressed, which auditor does not read; "
                                 + "decompress it first (\(fix.replacingFile(with: displayPath))), or recompress it with gzip or zstd",
                             location: displayPath)
        }
        switch InputCompression.detect(prefix) {
        case .gzip?: return ReadAheadSource(try GzipSource(raw))
        case .zstd?: return ReadAheadSource(try ZstdSource(raw))
        case .none?, nil: return raw
        }
    }
}

private extension String {
    func replacingFile(with path: String) -> String {
        path == ByteSources.standardInput ? self : replacing("FILE", with: "'\(path)'")
    }
}

extension ByteSources {
    /// The first `count` bytes of an input (decompressed), for sniffing its dialect or
    /// structure, and whether they are all of it; nil when it cannot be opened.
    package static func sample(path: String, displayPath: String, count: Int) -> (bytes: [UInt8], whole: Bool)? {
        guard let source = try? open(path: path, displayPath: displayPath) else { return nil }
        defer { source.close() }
        var sample = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = sample.withUnsafeMutableBufferPointer { buffer in
                try? source.read(into: buffer.baseAddress! + filled, count: count - filled)
            }
            guard let got, got > 0 else { return (Array(sample[..<filled]), got == 0) }
            filled += got
        }
        return (sample, false)
    }

    /// True when `path` is a file that is not compressed (or cannot be probed: its reader then
    /// reports why it cannot be opened); false for standard input, gzip, zstd, and the
    /// compressions auditor refuses (``open(path:displayPath:)`` says which).
    package static func isPlainFile(_ path: String) -> Bool {
        guard path != standardInput else { return false }
        guard let raw = try? FileSource(path: path, displayPath: path) else { return true }
        defer { raw.close() }
        guard let prefix = try? raw.peek(6) else { return true }
        return InputCompression.detect(prefix) == nil && InputCompression.unsupported(prefix) == nil
    }
}

extension ByteSources {
    /// Refuses standard input and compressed files for a format that needs random access
    /// (SQLite, Parquet).
    /// - Parameters:
    ///   - path: The input.
    ///   - displayPath: The input as messages show it.
    ///   - format: The format as a noun, for the message (`an SQLite database`).
    /// - Throws: ``AuditError`` `.usage` (64) for standard input, `.malformedInput` (65) for a
    ///   compressed file, each saying what to do instead.
    package static func refuseStream(_ path: String, displayPath: String, format: String) throws(AuditError) {
        if path == standardInput {
            throw AuditError(.usage, "\(format) cannot be read from standard input ('-'): it needs random access; "
                                 + "save it to a file and give its path", location: displayPath)
        }
        guard !isPlainFile(path), let raw = try? FileSource(path: path, displayPath: displayPath),
              let prefix = try? raw.peek(6) else { return }
        raw.close()
        let name = InputCompression.detect(prefix)?.rawValue ?? InputCompression.unsupported(prefix)?.name ?? "compressed"
        throw AuditError(.malformedInput, "the file is \(name)-compressed, but \(format) needs random access and cannot be "
                             + "read while it is decompressed; decompress it first and audit the decompressed file",
                         location: displayPath)
    }
}

extension InputCompression {
    /// The error for compressed data that ends inside a stream (a truncated file).
    func truncated(at offset: Int64, after decompressed: Int64, in path: String) -> AuditError {
        AuditError(.malformedInput,
                   "the \(rawValue) data ends early at compressed byte \(offset) (after \(decompressed) "
                       + "decompressed bytes): the file is truncated; copy or download it again",
                   location: path)
    }

    /// The error for compressed data the decompressor rejects.
    /// - Parameter what: How to call it (`corrupt gzip data`, `not valid gzip data`).
    func corrupt(_ what: String, at offset: Int64, after decompressed: Int64, detail: String, in path: String) -> AuditError {
        AuditError(.malformedInput,
                   "\(what) at compressed byte \(offset) (after \(decompressed) decompressed "
                       + "bytes): \(detail); the file is damaged; copy or download it again",
                   location: path)
    }
}
