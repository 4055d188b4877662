#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

extension OutputFile {
    /// The temporary files of ``OutputFile`` and how the ones a killed run left are removed.
    ///
    /// A temporary file is `.<name>.auditor-<16 hex digits>.tmp` beside its target, and its
    /// writer holds an exclusive `flock(2)` on it until it commits, discards or dies (the kernel
    /// drops the lock of a killed process, `kill -9` included). Before writing `name`, a run
    /// removes each such file of `name` that is a regular file owned by the same user and whose
    /// lock it can take at once: no live writer has it. Files of other names, of other users, or
    /// in use are never touched.
    enum Leftovers {
        static let marker = ".auditor-"
        static let suffix = ".tmp"

        /// `<folder>/.<name>.auditor-`.
        static func prefix(folder: String, name: String) -> String {
            (folder == "/" ? "/" : folder + "/") + "." + name + marker
        }

        /// Whether `file` (a name in a folder) is a temporary file of ``OutputFile`` for `name`.
        static func matches(_ file: String, name: String) -> Bool {
            let head = "." + name + marker
            guard file.hasPrefix(head), file.hasSuffix(suffix) else { return false }
            let middle = file.utf8.dropFirst(head.utf8.count).dropLast(suffix.utf8.count)
            return middle.count == 16 && middle.allSatisfy {
                ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
            }
        }

        /// Removes the abandoned temporary files of `name` in `folder`.
        /// - Returns: The paths removed.
        @discardableResult
        static func remove(folder: String, name: String) -> [String] {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
            var removed = [String]()
            for entry in entries where matches(entry, name: name) {
                let full = (folder == "/" ? "/" : folder + "/") + entry
                if removeIfAbandoned(full) { removed.append(full) }
            }
            return removed
        }

        /// Unlinks `path` when it is our regular file and no process holds its lock.
        static func removeIfAbandoned(_ path: String) -> Bool {
            var named = stat()
            guard lstat(path, &named) == 0, named.st_mode & S_IFMT == S_IFREG, named.st_uid == geteuid() else {
                return false
            }
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }   // a live writer holds it
            var opened = stat(), again = stat()
            guard fstat(fd, &opened) == 0, lstat(path, &again) == 0,
                  opened.st_dev == again.st_dev, opened.st_ino == again.st_ino else { return false }
            return unlink(path) == 0
        }
    }
}
