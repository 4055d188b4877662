#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Auditor

/// What an output path names once its symbolic links are followed, decided before anything is
/// written (see ``OutputFile``).
package enum OutputTarget: Equatable, Sendable {
    /// An open descriptor of this process: `-` (standard output), `/dev/stdout`, `/dev/stderr`,
    /// `/dev/fd/N`, `/proc/self/fd/N`. Written directly; never closed, never renamed over.
    case descriptor(Int32)
    /// An existing character device or FIFO (the resolved path): opened and written directly,
    /// never replaced by a rename. No atomic replace is possible there.
    case direct(path: String)
    /// A regular file, existing or not, at `name` inside the real folder `folder` (symbolic links
    /// resolved, so a link stays a link and its target receives the report): written to an
    /// exclusive temporary file in `folder`, then renamed over `name`.
    case file(folder: String, name: String)

    /// The most symbolic links followed before giving up (Linux's own limit for a path).
    static let maxLinks = 40

    /// Follows `path` to what a write would reach.
    /// - Parameters:
    ///   - path: The path as the user gave it; `-` is standard output.
    ///   - what: What is written, for messages (`the report`, `the failures file`).
    /// - Returns: The target.
    /// - Throws: ``AuditError`` `.cannotCreateOutput` when the folder does not exist, the path is
    ///   a directory, a socket or a block device, or it loops through symbolic links.
    public static func resolve(_ path: String, what: String) throws(AuditError) -> OutputTarget {
        if path == "-" { return .descriptor(STDOUT_FILENO) }
        guard !path.isEmpty else {
            throw AuditError(.usage, "the path for \(what) is empty; give a file name, or '-' for standard output")
        }
        var current = path
        for _ in 0 ..< maxLinks {
            let (folder, name) = split(current)
            guard let realFolder = realPath(folder) else {
                let why = String(cString: strerror(errno))
                throw AuditError(.cannotCreateOutput, "cannot write \(what): the folder '\(folder)' does not exist "
                                    + "or cannot be reached; create it first", location: path, cause: why)
            }
            if let fd = descriptorNumber(folder: realFolder, name: name) { return .descriptor(fd) }
            guard name != "", name != ".", name != ".." else {
                throw AuditError(.cannotCreateOutput, "cannot write \(what): this is a directory; give a file name, "
                                    + "e.g. '\(path.hasSuffix("/") ? path : path + "/")report.json'", location: path)
            }
            let full = realFolder == "/" ? "/" + name : realFolder + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else {
                if errno == ENOENT { return .file(folder: realFolder, name: name) }
                throw AuditError(.cannotCreateOutput, "cannot write \(what)", location: path,
                                 cause: String(cString: strerror(errno)))
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                guard let link = readLink(full) else {
                    throw AuditError(.cannotCreateOutput, "cannot write \(what): the symbolic link cannot be read",
                                     location: path, cause: String(cString: strerror(errno)))
                }
                current = link.hasPrefix("/") ? link : (realFolder == "/" ? "/" : realFolder + "/") + link
            case S_IFREG:
                return .file(folder: realFolder, name: name)
            case S_IFCHR, S_IFIFO:
                return .direct(path: full)
            case S_IFDIR:
                throw AuditError(.cannotCreateOutput, "cannot write \(what): this is a directory; give a file name "
                                    + "inside it, e.g. '\(path)/report.json'", location: path)
            default:
                throw AuditError(.cannotCreateOutput, "cannot write \(what): this is a socket or a block device; give "
                                    + "a regular file, '-' for standard output, a FIFO or a character device", location: path)
            }
        }
        throw AuditError(.cannotCreateOutput, "cannot write \(what): more than \(maxLinks) symbolic links (a loop?)",
                         location: path, cause: String(cString: strerror(ELOOP)))
    }

    /// `(folder, name)` of a path: the folder is `.` for a bare name and `/` at the root; the
    /// name is empty when the path ends in `/`.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// `N` when `folder/name` is `/proc/<this process>/fd/N` (where `/dev/stdout`, `/dev/fd/N`
    /// and `/proc/self/fd/N` lead): such a name is a magic link to an open descriptor, whose
    /// `readlink` text (`pipe:[…]`) is no path to follow.
    static func descriptorNumber(folder: String, name: String) -> Int32? {
        let own = "/proc/\(getpid())/"
        guard folder.hasPrefix(own), folder.hasSuffix("/fd"), !name.isEmpty,
              name.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let middle = folder.dropFirst(own.count).dropLast(3)
        // `/proc/<pid>/fd` or `/proc/<pid>/task/<tid>/fd` (`/proc/thread-self/fd`).
        guard middle.isEmpty || middle.hasPrefix("task/") else { return nil }
        return Int32(name)
    }

    static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
