import Auditor
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat` says about one file (all zero when it does not exist): the identity (device,
/// inode), the size and the modification time. Two stamps of one file differ when it was
/// replaced, truncated, appended to or rewritten in between.
struct FileStamp: Equatable {
    var exists = false
    var device: UInt64 = 0
    var inode: UInt64 = 0
    var size: Int64 = 0
    var modifiedSeconds: Int = 0
    var modifiedNanoseconds: Int = 0

    /// Stamps a path now.
    /// - Parameters:
    ///   - path: The file.
    ///   - followingLinks: `stat` (the file a symlink points to) rather than `lstat`.
    init(path: String, followingLinks: Bool = false) {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else {
            self.init()
            return
        }
        self.init(info)
    }

    /// Stamps what `stat`/`fstat` returned.
    init(_ info: stat) {
        exists = true
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    }

    init(device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int) {
        exists = true
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// A stamp of a file that does not exist.
    init() {}

    var summary: String {
        exists ? "\(size) bytes, inode \(inode), modified \(modifiedSeconds).\(modifiedNanoseconds)" : "absent"
    }
}

/// Proves that a text input (CSV, XML) read from its first byte to its last did not change
/// meanwhile, as ``SQLiteReader`` does for databases: the file's stamp when it was opened
/// (`fstat` of the descriptor) against the path's stamp at the end (`stat`, following links as
/// `open` did), plus the bytes read against the size at open.
///
/// A file replaced (a new inode at the path, or none), truncated, appended to or rewritten
/// while it is read yields an ``AuditError`` `.transient` (exit 75, "retry"): the records read
/// may mix two versions of the file, or miss some. A rewrite that keeps the size, inode and
/// modification time (within the file system's timestamp granularity) is not seen.
/// Only regular files are watched: a FIFO or a device has no size to compare.
package struct FileChangeWatch {
    let path: String
    let displayPath: String
    /// The file as opened.
    let opened: FileStamp

    /// - Parameters:
    ///   - path: The path that was opened.
    ///   - displayPath: The path as messages show it.
    ///   - opened: The descriptor's stamp at open time.
    init(path: String, displayPath: String, opened: FileStamp) {
        self.path = path
        self.displayPath = displayPath
        self.opened = opened
    }

    /// The change since open, or nil when the file looks the same.
    /// - Parameter bytesRead: The bytes read when the whole file was read to its end (they
    ///   must equal the size at open), or nil when the read stopped earlier.
    func change(bytesRead: Int64?) -> AuditError? {
        let now = FileStamp(path: path, followingLinks: true)
        let what: String
        if !now.exists {
            what = "was deleted or renamed"
        } else if now.device != opened.device || now.inode != opened.inode {
            what = "was replaced by another file"
        } else if now.size < opened.size {
            what = "was truncated"
        } else if now.size > opened.size {
            what = "was appended to"
        } else if now != opened {
            what = "was rewritten"
        } else if let bytesRead, bytesRead != opened.size {
            what = bytesRead < opened.size ? "was truncated" : "was appended to"
            return Self.error(displayPath, what,
                              cause: "\(opened.size) bytes at open, \(bytesRead) bytes read to the end")
        } else {
            return nil
        }
        return Self.error(displayPath, what, cause: "\(opened.summary) → \(now.summary)")
    }

    /// Throws the change, if any (see ``change(bytesRead:)``).
    func check(bytesRead: Int64?) throws(AuditError) {
        if let error = change(bytesRead: bytesRead) { throw error }
    }

    /// A failure while the file changed under the reader is reported as the change: a
    /// truncated document looks malformed, but the cure is to retry, not to fix the data.
    func unlessChanged(_ error: AuditError) -> AuditError {
        guard error.code != .invalidRules, error.code != .transient else { return error }
        return change(bytesRead: nil) ?? error
    }

    static func error(_ displayPath: String, _ what: String, cause: String) -> AuditError {
        AuditError(.transient, "the file \(what) while it was read: it changed during the audit, so its results "
                       + "would be incomplete or mix two versions; retry once nothing writes to it "
                       + "(or audit a copy)", location: displayPath, cause: cause)
    }
}
