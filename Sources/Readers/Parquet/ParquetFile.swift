import Auditor
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open Parquet file: a read-only descriptor read with `pread` (no shared offset, so
/// column chunks of one row group are read from several threads at once), and its footer.
// @unchecked Sendable: `fd` and `size` never change after init, and `pread` is thread-safe;
// the descriptor is closed only in deinit, when no reader thread can hold the object.
final class ParquetFile: @unchecked Sendable {
    let path: String
    let displayPath: String
    let size: Int64
    let opened: FileStamp
    private let fd: Int32

    /// Opens `path` for reading.
    /// - Throws: ``AuditError`` `.missingInput` when it cannot be opened or is not a regular file.
    init(path: String, displayPath: String) throws(AuditError) {
        try InputFile.requireRegular(path)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            throw AuditError(.missingInput, "cannot open the Parquet file", location: displayPath,
                             cause: String(cString: strerror(errno)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw AuditError(.missingInput, "cannot read the Parquet file: it is not a regular file", location: displayPath)
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        self.fd = fd
        self.path = path
        self.displayPath = displayPath
        size = Int64(info.st_size)
        opened = FileStamp(info)
    }

    deinit { close(fd) }

    /// Reads `count` bytes at `offset`, which must lie inside the file.
    func read(at offset: Int64, count: Int64) throws(ParquetFailure) -> [UInt8] {
        guard offset >= 0, count >= 0, count <= size, offset <= size - count else {
            throw ParquetFailure("a byte range (\(count) bytes at offset \(offset)) lies outside the file's \(size) bytes")
        }
        let n = Int(count)
        var failure: String?
        let bytes = [UInt8](unsafeUninitializedCapacity: max(n, 1)) { buffer, initialized in
            var done = 0
            while done < n {
                let r = pread(fd, buffer.baseAddress! + done, n - done, off_t(offset) + off_t(done))  // capacity >= 1
                if r < 0 && errno == EINTR { continue }
                guard r > 0 else {
                    failure = r < 0 ? String(cString: strerror(errno)) : "the file ended early (it changed while read?)"
                    break
                }
                done += r
            }
            initialized = done
        }
        if let failure { throw ParquetFailure("cannot read the file: \(failure)") }
        return bytes
    }

    /// Reads and decodes the footer.
    /// - Throws: A message when the file is not Parquet or its footer is corrupt.
    func footer() throws(ParquetFailure) -> ParquetFileMetaData {
        guard size >= 12 else { throw ParquetFailure("the file is too short to be Parquet (\(size) bytes)") }
        let head = try read(at: 0, count: 4)
        let tail = try read(at: size - 8, count: 8)
        let magic = Array("PAR1".utf8)
        if Array(tail[4...]) == Array("PARE".utf8) {
            throw ParquetFailure("the file is an encrypted Parquet file, which auditor cannot read")
        }
        guard head == magic, Array(tail[4...]) == magic else {
            throw ParquetFailure("the file is not Parquet (it must start and end with 'PAR1')")
        }
        let length = Int64(tail.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
        guard length <= size - 12 else {
            throw ParquetFailure("the footer claims \(length) bytes, more than the file holds (truncated?)")
        }
        let bytes = try read(at: size - 8 - length, count: length)
        let decoded: Result<ParquetFileMetaData, ThriftCompactReader.Failure> = bytes.withUnsafeBytes { b in
            do throws(ThriftCompactReader.Failure) { return .success(try ParquetFileMetaData.decode(b)) } catch { return .failure(error) }
        }
        switch decoded {
        case .success(let meta): return meta
        case .failure(let error): throw ParquetFailure("the footer is corrupt: \(error.message)")
        }
    }
}
