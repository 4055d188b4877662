#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Auditor

/// The raw bytes of a file, or of standard input for `-`, read with `read(2)`.
///
/// ``peek(_:)`` reads the first bytes without consuming them (the magic bytes that tell a
/// compressed input); the next reads return them first.
package final class FileSource: ByteSource {
    package let displayPath: String
    package let compression = InputCompression.none
    package let totalBytes: Int64?
    package let watch: FileChangeWatch?
    package private(set) var rawBytesRead: Int64 = 0
    package private(set) var rawAtEnd = false
    /// True for standard input (its descriptor is a duplicate, so closing it leaves fd 0 alone).
    package let isStandardInput: Bool
    private var descriptor: Int32
    /// Bytes read by ``peek(_:)`` and not returned yet.
    private var pending: [UInt8] = []

    /// Opens a file for reading, or standard input when `path` is `-`.
    /// - Throws: ``AuditError`` `.missingInput` when the path does not exist, is a directory or
    ///   cannot be opened.
    package init(path: String, displayPath: String) throws(AuditError) {
        self.displayPath = displayPath
        isStandardInput = path == ByteSources.standardInput
        // O_NONBLOCK: a file swapped for a FIFO after the engine's InputFile check must not block
        // the open; blocking reads are restored below.
        if isStandardInput, isatty(STDIN_FILENO) == 1 {
            // Reading would wait for typing: nobody means that (`--source people=- < people.csv`).
            throw AuditError(.usage, "standard input ('-') is a terminal; pipe or redirect the data into auditor "
                                 + "(e.g. --source people=- < people.csv)", location: displayPath)
        }
        let fd = isStandardInput ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            throw FileSource.cannotOpen(displayPath, errno)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw FileSource.cannotOpen(displayPath, code)
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR {
            Glibc.close(fd)
            throw FileSource.cannotOpen(displayPath, EISDIR)
        }
        if !isStandardInput {
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        }
        let regular = kind == S_IFREG && !isStandardInput
        totalBytes = regular ? Int64(info.st_size) : nil
        watch = regular ? FileChangeWatch(path: path, displayPath: displayPath, opened: FileStamp(info)) : nil
        descriptor = fd
    }

    deinit { close() }

    /// The first `count` bytes (fewer when the input is shorter), left to be read again.
    /// - Throws: ``AuditError`` `.io` when reading fails.
    package func peek(_ count: Int) throws(AuditError) -> [UInt8] {
        var scratch = [UInt8](repeating: 0, count: count)
        var have = 0
        while have < count {
            let n = try scratch.withUnsafeMutableBufferPointer { (buffer) throws(AuditError) -> Int in
                // `buffer` has `count` elements and `have < count`.
                try readRaw(into: buffer.baseAddress.unsafelyUnwrapped + have, count: count - have)
            }
            if n == 0 { break }
            have += n
        }
        pending = Array(scratch[..<have])
        return pending
    }

    package func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(AuditError) -> Int {
        guard count > 0 else { return 0 }
        if !pending.isEmpty {
            let n = min(count, pending.count)
            pending.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress.unsafelyUnwrapped, count: n) }
            pending.removeFirst(n)
            // One read after the peeked bytes as well, so that the first read is as full as
            // without a peek (the CSV reader sniffs the encoding on its first buffer).
            guard n < count, pending.isEmpty else { return n }
            return n + (try readRaw(into: buffer + n, count: count - n))
        }
        return try readRaw(into: buffer, count: count)
    }

    private func readRaw(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(AuditError) -> Int {
        guard descriptor >= 0, !rawAtEnd else { return 0 }
        while true {
            let n = Glibc.read(descriptor, buffer, count)
            if n > 0 {
                rawBytesRead += Int64(n)
                return n
            }
            if n == 0 {
                rawAtEnd = true
                close()
                return 0
            }
            let code = errno
            if code == EINTR { continue }
            throw AuditError(.io, "cannot read '\(displayPath)'; check the disk and the file's permissions",
                             location: displayPath, cause: FileSource.describe(code))
        }
    }

    package func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    static func cannotOpen(_ displayPath: String, _ code: Int32) -> AuditError {
        CSVMessages.cannotOpen(displayPath, cause: describe(code))
    }

    /// The text of an `errno` value.
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
