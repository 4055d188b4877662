#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one rule for what auditor reads: regular files only.
///
/// A FIFO with no writer blocks `open(2)` forever, a character device such as `/dev/zero`
/// never ends, a directory or a socket holds no data, and a pipe can be read only once while
/// the audit may read a source twice and compares its size, time and inode before and after.
/// So every input (sources, `--previous` snapshots, the rules file, a message catalog, a
/// baseline, files hashed for the history) is checked with `stat(2)` (which never blocks)
/// before it is opened, and anything but a regular file is refused with exit 66.
///
/// A path that does not exist or cannot be examined passes: the reader's own `open` then
/// reports it with its usual message. The CSV and XML readers open with `O_NONBLOCK` too, so a
/// file swapped for a FIFO between this check and their `open` cannot block it (a FIFO without
/// a writer then reads as empty).
package enum InputFile {
    /// Refuses `path` when it exists and is not a regular file (symbolic links followed).
    /// - Parameters:
    ///   - path: The input.
    ///   - what: What it is, for the message (`the input`, `the rules file`).
    /// - Throws: ``AuditError`` `.missingInput` (exit 66) naming the kind of file and the fix.
    public static func requireRegular(_ path: String, what: String = "the input") throws(AuditError) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        if let problem = problem(kind: info.st_mode & S_IFMT) {
            throw AuditError(.missingInput, "cannot read \(what): \(problem)", location: path)
        }
    }

    /// Why a file of this kind (`st_mode & S_IFMT`) is not read; nil for a regular file.
    public static func problem(kind: mode_t) -> String? {
        let fix = "auditor reads regular files only; save the data to a file and give that path"
        switch kind {
        case S_IFREG: return nil
        case S_IFIFO: return "it is a FIFO or pipe (reading one can block forever, and it can be read only once); \(fix)"
        case S_IFCHR: return "it is a character device (it may never end or wait for input); \(fix)"
        case S_IFBLK: return "it is a block device; \(fix)"
        case S_IFDIR: return "it is a directory; give the path of a file inside it"
        case S_IFSOCK: return "it is a socket; \(fix)"
        default: return "it is not a regular file; \(fix)"
        }
    }

    /// Opens a regular file for reading without ever blocking: `O_NONBLOCK` for the `open`
    /// (a FIFO with no writer returns at once), `fstat` on the descriptor (no race with a
    /// swap), then blocking reads again.
    /// - Parameter path: The file (symbolic links followed).
    /// - Returns: The descriptor; the caller closes it.
    /// - Throws: ``AuditError`` `.missingInput` when it cannot be opened or is not a regular file.
    public static func openForHashing(_ path: String) throws(AuditError) -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else {
            throw AuditError(.missingInput, "cannot open the file to hash it", location: path,
                             cause: String(cString: strerror(errno)))
        }
        var info = stat()
        let kind = fstat(fd, &info) == 0 ? info.st_mode & S_IFMT : 0
        if let problem = problem(kind: kind) {
            close(fd)
            throw AuditError(.missingInput, "cannot hash the file: \(problem)", location: path)
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return fd
    }
}
