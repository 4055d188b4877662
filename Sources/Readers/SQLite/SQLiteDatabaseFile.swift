import Auditor
#if canImport(Glibc)
import Glibc
#endif

/// The database file an ``SQLiteReader`` audits: where it really is, how to open it without
/// changing it, and a fingerprint of it and its sidecars to prove it did not change.
struct SQLiteDatabaseFile {
    /// The absolute path: the real (symlink-free) directory plus the file name as given.
    let path: String
    /// The path as the user wrote it, for messages.
    let displayPath: String

    /// How the connection is opened, decided from the sidecars present at open time.
    enum OpenMode: Equatable {
        /// No `-wal` or `-journal`: `immutable=1`, no locks, no sidecar is ever touched.
        case immutable
        /// A `-journal` exists (rollback mode, a write may be in progress): `mode=ro` with
        /// ordinary locks, so SQLite waits for the writer and tells a hot journal from a live one.
        case readOnly
        /// A `-wal` exists: `mode=ro` on the `unix-none` VFS in exclusive locking mode, so the
        /// WAL is read into private memory and the `-shm` file is neither created nor written.
        ///
        /// With the default VFS a read-only connection opens `-shm` with `O_RDWR|O_CREAT`
        /// (creating it when missing) and writes its read mark into it: verified with strace on
        /// SQLite 3.40.1, and `readonly_shm=1` does not help when another connection of the same
        /// process already maps it. Without locks a concurrent checkpoint could tear our read,
        /// which is why the fingerprint is compared again at the end and after any error.
        /// (`unix-none` keeps no per-inode bookkeeping: closing its descriptor drops any POSIX
        /// lock *this process* holds on the file through another connection. The auditor holds
        /// none; a test that keeps a writer open in-process loses that writer's locks, which
        /// only matters if another process writes at the same time.)
        case readOnlyWAL
    }

    /// Finds the file. The directory is resolved to its real path (so a symlinked working
    /// directory works); the file itself must not be a symlink (`SQLITE_OPEN_NOFOLLOW`).
    /// - Throws: ``AuditError`` `.missingInput` (no such file, a directory, a symlink) or
    ///   `.malformedInput` (an empty file).
    static func locate(_ rawPath: String, displayPath: String) throws(AuditError) -> SQLiteDatabaseFile {
        var absolute = rawPath
        if !absolute.hasPrefix("/") {
            guard let cwd = currentDirectory() else {
                throw AuditError(.io, "cannot determine the current directory to find the database",
                                 location: displayPath, cause: errnoText())
            }
            absolute = cwd + "/" + rawPath
        }
        let slash = absolute.lastIndex(of: "/") ?? absolute.startIndex
        let directory = slash == absolute.startIndex ? "/" : String(absolute[..<slash])
        let name = String(absolute[absolute.index(after: slash)...])
        guard !name.isEmpty, name != ".", name != ".." else {
            throw AuditError(.missingInput, "'\(displayPath)' names a directory, not an SQLite database file; "
                                + "give the path of the database file", location: displayPath)
        }
        guard let realDirectory = realPath(directory) else {
            throw AuditError(.missingInput, "the folder of '\(displayPath)' does not exist; check the path",
                             location: displayPath, cause: errnoText())
        }
        let path = (realDirectory == "/" ? "" : realDirectory) + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            let cause = String(cString: strerror(code))
            if code == EACCES {
                throw AuditError(.missingInput, "cannot open '\(displayPath)': permission denied; "
                                    + "the database must be readable by this user", location: displayPath, cause: cause)
            }
            throw AuditError(.missingInput, "'\(displayPath)' does not exist; check the path", location: displayPath,
                             cause: cause)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFLNK:
            let target = realPath(path).map { " ('\($0)')" } ?? ""
            throw AuditError(.missingInput, "'\(displayPath)' is a symbolic link; SQLite databases are opened only "
                                + "through their real path: give the link's target\(target) instead",
                             location: displayPath)
        case S_IFDIR:
            throw AuditError(.missingInput, "'\(displayPath)' is a directory, not an SQLite database file; "
                                + "give the path of the database file", location: displayPath)
        default:
            throw AuditError(.missingInput, "'\(displayPath)' is not a regular file; give the path of an SQLite "
                                + "database file", location: displayPath)
        }
        if info.st_size == 0 {
            throw AuditError(.malformedInput, "'\(displayPath)' is empty, not an SQLite database; check the path "
                                + "(or the source's format)", location: displayPath)
        }
        return SQLiteDatabaseFile(path: path, displayPath: displayPath)
    }

    /// The sidecar paths SQLite uses next to the database.
    var walPath: String { path + "-wal" }
    var journalPath: String { path + "-journal" }
    var shmPath: String { path + "-shm" }

    /// The open mode for the sidecars of a fingerprint (CONVENTIONS.md rule 7: `immutable=1`
    /// only when neither `-wal` nor `-journal` exists).
    static func openMode(for fingerprint: Fingerprint) -> OpenMode {
        if fingerprint.wal.exists { return .readOnlyWAL }
        if fingerprint.journal.exists { return .readOnly }
        return .immutable
    }

    /// The `file:` URI for a mode, built from the absolute path: every byte outside
    /// `A-Z a-z 0-9 / - . _ ~` is percent-encoded (so `?`, `#`, `%`, spaces and non-ASCII
    /// never reach SQLite's URI parser as syntax).
    func uri(_ mode: OpenMode) -> String {
        var encoded = "file://"
        encoded.reserveCapacity(path.utf8.count + 40)
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes = [UInt8]()
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "a") ... UInt8(ascii: "z"),
                 UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"),
                 UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            }
        }
        encoded += String(decoding: bytes, as: UTF8.self)
        switch mode {
        case .immutable: encoded += "?mode=ro&immutable=1"
        case .readOnly: encoded += "?mode=ro"
        case .readOnlyWAL: encoded += "?mode=ro&vfs=unix-none"
        }
        return encoded
    }

    // MARK: - Fingerprint

    /// The database and its sidecars at one moment: size, mtime and inode of each, plus a
    /// hash of the database's first page (which holds the file change counter).
    struct Fingerprint: Equatable {
        var main: FileStamp
        var headerHash: UInt64
        var wal: FileStamp
        var journal: FileStamp
        var shm: FileStamp

        /// The files that differ between two fingerprints, for the error's cause.
        func differences(from other: Fingerprint, file: SQLiteDatabaseFile) -> String {
            var parts = [String]()
            let pairs: [(String, FileStamp, FileStamp)] = [
                (file.displayPath, main, other.main), (file.displayPath + "-wal", wal, other.wal),
                (file.displayPath + "-journal", journal, other.journal), (file.displayPath + "-shm", shm, other.shm),
            ]
            for (name, a, b) in pairs where a != b {
                parts.append("\(name): \(a.summary) → \(b.summary)")
            }
            if headerHash != other.headerHash, main == other.main {
                parts.append("\(file.displayPath): header page rewritten")
            }
            return parts.joined(separator: "; ")
        }
    }

    /// Takes a fingerprint now.
    func fingerprint() -> Fingerprint {
        Fingerprint(main: FileStamp(path: path), headerHash: headerPageHash(),
                    wal: FileStamp(path: walPath), journal: FileStamp(path: journalPath),
                    shm: FileStamp(path: shmPath))
    }

    /// FNV-1a of the database's first page (its page size is read from the header; the whole
    /// file when it is shorter). 0 when the file cannot be read.
    private func headerPageHash() -> UInt64 {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var page = [UInt8](repeating: 0, count: 65536)
        let count = page.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return 0 }
        var length = count
        if count >= 18 {
            // Bytes 16-17: the page size, big-endian; 1 means 65536.
            let raw = Int(page[16]) << 8 | Int(page[17])
            let pageSize = raw == 1 ? 65536 : raw
            if pageSize >= 512 { length = min(count, pageSize) }
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in page[..<length] {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}

// MARK: - Small POSIX helpers

private func currentDirectory() -> String? {
    guard let pointer = getcwd(nil, 0) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
}

private func realPath(_ path: String) -> String? {
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
}

private func errnoText() -> String {
    String(cString: strerror(errno))
}
