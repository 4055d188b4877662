#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Auditor

/// Writes one output (a report, the failures file) without ever destroying anything: the one
/// place where auditor creates files.
///
/// - The path is resolved first (``OutputTarget``): `-` and `/dev/stdout`-like names are
///   written to the open descriptor; a character device or a FIFO is opened and written
///   directly (never replaced by a rename, so no atomic replace is possible there); a regular
///   file, existing or not, is written through every symbolic link to its real folder, so a
///   link stays a link.
/// - A path that reaches a protected file (``ProtectedFiles``: an input, the rules file, a
///   sidecar) is refused with a usage error (exit 64) before anything is written.
/// - A regular file is written to a temporary file created exclusively in the target's folder
///   (`O_CREAT|O_EXCL|O_NOFOLLOW`, name `.<name>.auditor-<16 random hex digits>.tmp`, so a
///   planted link is never followed), locked with `flock(2)` while in use, `fsync`ed and renamed
///   over the target by ``commit()``. A failed write removes it and leaves the target as it was.
/// - Leftovers of a killed run (same name pattern, owned by this user, and not locked: their
///   process is gone) are removed the next time the same output is written.
///
/// Not `Sendable`: one writer is used from one thread.
package final class OutputFile {
    /// The path as the user gave it (messages use it).
    public let path: String
    /// What the file is, for messages (`the report`).
    public let what: String
    /// Where the bytes go.
    public let target: OutputTarget
    /// The temporary file while a regular file is being written.
    public private(set) var temporaryPath: String?
    private var fd: Int32
    private var closed = false

    /// Resolves `path`, checks it against `protected`, and opens the temporary file, the device
    /// or the descriptor.
    /// - Parameters:
    ///   - path: The output path; `-` is standard output.
    ///   - what: What is written, for messages, e.g. `the report`.
    ///   - option: The option that named the path (`--output`), for messages.
    ///   - protected: Files that must never be written.
    /// - Throws: ``AuditError`` `.usage` when the path reaches a protected file,
    ///   `.cannotCreateOutput` when it cannot be created or opened.
    public convenience init(path: String, what: String = "the report", option: String = "--output",
                            protecting protected: ProtectedFiles = ProtectedFiles()) throws(AuditError) {
        try self.init(path: path, what: what, option: option, protecting: protected, names: Self.randomName)
    }

    /// As the public initialiser, with the temporary names drawn from `names` (tests plant
    /// files at the names it returns).
    init(path: String, what: String, option: String, protecting protected: ProtectedFiles,
         names: () -> String) throws(AuditError) {
        self.path = path
        self.what = what
        target = try OutputTarget.resolve(path, what: what)
        switch target {
        case .descriptor(let n):
            var info = stat()
            guard fstat(n, &info) == 0 else {
                throw AuditError(.cannotCreateOutput, "cannot write \(what): descriptor \(n) is not open", location: path,
                                 cause: String(cString: strerror(errno)))
            }
            try Self.refuse(protected.entry(identity: (info.st_dev, info.st_ino), canonical: nil), path, option, what)
            fd = n
        case .direct(let device):
            fd = try Self.openDirect(device, path: path, what: what)
            var info = stat()
            fstat(fd, &info)
            if let hit = protected.entry(identity: (info.st_dev, info.st_ino), canonical: device) {
                close(fd)
                try Self.refuse(hit, path, option, what)
            }
        case .file(let folder, let name):
            let full = folder == "/" ? "/" + name : folder + "/" + name
            var info = stat()
            let exists = lstat(full, &info) == 0
            try Self.refuse(protected.entry(identity: exists ? (info.st_dev, info.st_ino) : nil, canonical: full),
                            path, option, what)
            Leftovers.remove(folder: folder, name: name)
            let (descriptor, temporary) = try Self.createTemporary(folder: folder, name: name, path: path, what: what,
                                                                  mode: exists ? info.st_mode & 0o777 : nil, names: names)
            fd = descriptor
            temporaryPath = temporary
        }
    }

    deinit { discard() }

    /// Writes all of `bytes`, retrying short writes and `EINTR`.
    /// - Throws: ``AuditError`` `.io` (exit 74) when the system refuses, e.g. a full disk.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(AuditError) {
        guard !closed else { throw AuditError(.internal, "\(what) was already closed", location: path) }
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let n = systemWrite(fd, base + offset, bytes.count - offset)
            if n > 0 { offset += n; continue }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, 1000)
                continue
            }
            let why = String(cString: strerror(n < 0 ? errno : EIO))
            let e = AuditError(.io, "cannot write \(what) (disk full, or an input/output error); nothing was replaced",
                               location: path, cause: why)
            discard()
            throw e
        }
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) throws(AuditError) {
        var copy = text
        var failure: AuditError?
        copy.withUTF8 { p in
            do throws(AuditError) { try self.write(UnsafeRawBufferPointer(p)) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Finishes: a regular file is synced and renamed over its target; a device or FIFO is
    /// closed; a descriptor is left open.
    /// - Throws: ``AuditError`` `.io` when the data cannot be synced, `.cannotCreateOutput` when
    ///   the rename fails; the temporary file is removed either way.
    public func commit() throws(AuditError) {
        guard !closed else { return }
        switch target {
        case .descriptor:
            closed = true
        case .direct:
            closed = true
            close(fd)
        case .file(let folder, let name):
            guard let temporary = temporaryPath else { return }
            if fsync(fd) != 0 || close(fd) != 0 {
                let why = String(cString: strerror(errno))
                closed = true
                unlink(temporary)
                temporaryPath = nil
                throw AuditError(.io, "cannot write \(what) (disk full, or an input/output error); nothing was replaced",
                                 location: path, cause: why)
            }
            closed = true
            let full = folder == "/" ? "/" + name : folder + "/" + name
            if rename(temporary, full) != 0 {
                let why = String(cString: strerror(errno))
                unlink(temporary)
                temporaryPath = nil
                throw AuditError(.cannotCreateOutput, "cannot write \(what)", location: path, cause: why)
            }
            temporaryPath = nil
            // Make the rename itself durable (best effort: some file systems refuse).
            let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if dir >= 0 { fsync(dir); close(dir) }
        }
    }

    /// Abandons the output: the temporary file is removed and the target left as it was.
    public func discard() {
        guard !closed else { return }
        closed = true
        switch target {
        case .descriptor: break
        case .direct: close(fd)
        case .file:
            close(fd)
            if let temporaryPath { unlink(temporaryPath) }
            temporaryPath = nil
        }
    }

    /// Writes `text` to `path` in one go (see the type's documentation).
    /// - Throws: ``AuditError`` as ``init(path:what:option:protecting:)``, ``write(_:)-(String)``
    ///   and ``commit()``.
    public static func write(_ text: String, to path: String, what: String = "the report", option: String = "--output",
                             protecting protected: ProtectedFiles = ProtectedFiles()) throws(AuditError) {
        let file = try OutputFile(path: path, what: what, option: option, protecting: protected)
        try file.write(text)
        try file.commit()
    }

    /// Checks `path` without writing anything: it resolves and reaches no protected file.
    /// - Throws: ``AuditError`` as ``OutputTarget/resolve(_:what:)`` and `.usage` for a protected file.
    public static func check(_ path: String, what: String = "the report", option: String = "--output",
                             protecting protected: ProtectedFiles) throws(AuditError) {
        switch try OutputTarget.resolve(path, what: what) {
        case .descriptor(let n):
            var info = stat()
            if fstat(n, &info) == 0 {
                try refuse(protected.entry(identity: (info.st_dev, info.st_ino), canonical: nil), path, option, what)
            }
        case .direct(let device):
            try refuse(protected.entry(reachedBy: device), path, option, what)
        case .file(let folder, let name):
            try refuse(protected.entry(reachedBy: folder == "/" ? "/" + name : folder + "/" + name), path, option, what)
        }
    }

    /// Checks each of `outputs` as ``check(_:what:option:protecting:)`` does, and refuses two
    /// that reach the same file (`--rules-out r.yml -o ./r.yml`, a link): one would replace the other.
    /// - Throws: ``AuditError`` as ``check(_:what:option:protecting:)``, and `.usage` for a file named twice.
    public static func check(_ outputs: [(path: String, what: String, option: String)],
                             protecting protected: ProtectedFiles) throws(AuditError) {
        var earlier = ProtectedFiles()
        for (path, what, option) in outputs {
            try check(path, what: what, option: option, protecting: protected)
            guard case .file = try OutputTarget.resolve(path, what: what) else { continue }
            if let other = earlier.entry(reachedBy: path) {
                throw AuditError(.usage, "\(option) '\(path)' is the same file as \(other.role); give \(what) a file of its own",
                                 location: path)
            }
            earlier.add(path, role: "\(option) '\(path)'", sidecars: false)
        }
    }

    // MARK: - Helpers

    static func refuse(_ hit: ProtectedFiles.Entry?, _ path: String, _ option: String, _ what: String) throws(AuditError) {
        guard let hit else { return }
        let same = hit.path == path ? "" : " ('\(hit.path)')"
        throw AuditError(.usage, "\(option) '\(path)' is \(hit.role)\(same); auditor never writes to what it reads: "
                            + "give \(what) a path of its own", location: path)
    }

    /// Opens a character device or FIFO for writing without blocking on a FIFO that no process
    /// reads (`ENXIO`), then makes the descriptor blocking again.
    static func openDirect(_ device: String, path: String, what: String) throws(AuditError) -> Int32 {
        let fd = open(device, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            let hint = code == ENXIO ? ": no process reads this FIFO; start the reader first" : ""
            throw AuditError(.cannotCreateOutput, "cannot write \(what)\(hint)", location: path,
                             cause: String(cString: strerror(code)))
        }
        var info = stat()
        let kind = fstat(fd, &info) == 0 ? info.st_mode & S_IFMT : 0
        guard kind == S_IFCHR || kind == S_IFIFO else {
            close(fd)       // replaced between the check and the open
            throw AuditError(.cannotCreateOutput, "cannot write \(what): the device or FIFO was replaced while opening it; retry",
                             location: path)
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return fd
    }

    /// `.<name>.auditor-<16 hex>.tmp`, from the system's random source.
    static func randomName() -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Creates, locks and checks a temporary file in `folder`.
    static func createTemporary(folder: String, name: String, path: String, what: String, mode: mode_t?,
                                names: () -> String) throws(AuditError) -> (Int32, String) {
        var lastError: Int32 = EEXIST
        for _ in 0 ..< 64 {
            let temporary = Leftovers.prefix(folder: folder, name: name) + names() + Leftovers.suffix
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if fd < 0 {
                lastError = errno
                if lastError == EEXIST || lastError == ELOOP || lastError == EINTR { continue }
                break
            }
            // Held until the process ends: a later run sees that the file is in use.
            _ = flock(fd, LOCK_EX)
            // A cleaner may have removed it between open and flock: then take another name.
            var mine = stat(), named = stat()
            guard fstat(fd, &mine) == 0, lstat(temporary, &named) == 0,
                  mine.st_dev == named.st_dev, mine.st_ino == named.st_ino else {
                close(fd)
                continue
            }
            if let mode { _ = fchmod(fd, mode) }
            return (fd, temporary)
        }
        throw AuditError(.cannotCreateOutput, "cannot write \(what): cannot create a temporary file in '\(folder)'; "
                            + "check that the folder is writable", location: path, cause: String(cString: strerror(lastError)))
    }
}

/// `write(2)`, out of reach of ``OutputFile/write(_:)-(UnsafeRawBufferPointer)``'s name.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
