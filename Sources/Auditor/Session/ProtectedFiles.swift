#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The files a run must never write: its inputs (the sources, the `--previous` snapshots, the
/// rules file) and each one's SQLite sidecars (`-wal`, `-shm`, `-journal`), plus anything else
/// the caller adds (the history database).
///
/// A path matches when it reaches the same file however it is named (a symbolic link, a hard
/// link, `..`: same device and inode), or, for a file that does not exist yet, when its real
/// folder and name are those of a protected path (a sidecar SQLite would create later).
public struct ProtectedFiles: Sendable {
    /// One protected path and what it is, for messages (`the input of source 'people'`).
    public struct Entry: Sendable, Equatable {
        public var path: String
        public var role: String
    }

    /// Every protected path, sidecars included.
    public private(set) var entries: [Entry] = []

    public init() {}

    /// Protects `path` and its SQLite sidecars.
    /// - Parameters:
    ///   - path: An input as the run names it.
    ///   - role: What it is, e.g. `the input of source 'people'`.
    ///   - sidecars: Whether to protect `path-wal`, `path-shm` and `path-journal` too.
    public mutating func add(_ path: String, role: String, sidecars: Bool = true) {
        // A connection URL (postgresql://…) names no file that a report could overwrite.
        guard !path.isEmpty, !SourceURL.isURL(path) else { return }
        entries.append(Entry(path: path, role: role))
        guard sidecars else { return }
        for suffix in ["-wal", "-shm", "-journal"] {
            entries.append(Entry(path: path + suffix, role: "the SQLite sidecar of \(role)"))
        }
    }

    /// The protected entry that the file at `device`/`inode`, or named `canonical`, is.
    /// - Parameters:
    ///   - identity: Device and inode of an existing file, nil for one not created yet.
    ///   - canonical: The real folder and name (`/real/folder/name`).
    /// - Returns: The first matching entry, or nil.
    package func entry(identity: (dev_t, ino_t)?, canonical: String?) -> Entry? {
        for e in entries {
            let other = Self.identify(e.path)
            if let identity, let o = other.identity, o.0 == identity.0, o.1 == identity.1 { return e }
            if let canonical, let c = other.canonical, c == canonical { return e }
        }
        return nil
    }

    /// The entry that writing `path` would reach, if any (its symbolic links followed).
    /// - Parameter path: A path the run writes directly (not through `Reports`' `OutputTarget`), such as
    ///   the history database.
    public func entry(reachedBy path: String) -> Entry? {
        let id = Self.identify(path)
        return entry(identity: id.identity, canonical: id.canonical)
    }

    /// Device and inode (when the file exists) and the real path (the real folder plus the
    /// name when the file does not exist yet, through a dangling symbolic link to where
    /// writing would create it).
    static func identify(_ path: String) -> (identity: (dev_t, ino_t)?, canonical: String?) {
        var info = stat()
        if stat(path, &info) == 0 {
            return ((info.st_dev, info.st_ino), realPath(path))
        }
        var path = path
        for _ in 0 ..< 40 {
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let target = linkTarget(path) else { break }
            path = target.hasPrefix("/") ? target : split(path).folder + "/" + target
        }
        let (folder, name) = split(path)
        guard let real = realPath(folder) else { return (nil, nil) }
        return (nil, real == "/" ? "/" + name : real + "/" + name)
    }

    /// What the symbolic link at `path` names, or nil.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `realpath(3)`, or nil when the path does not resolve.
    private static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// The folder (`.` for a bare name) and the last component.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
