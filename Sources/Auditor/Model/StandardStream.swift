#if canImport(Glibc)
import Glibc
#endif

/// Writes text to standard output or standard error from the string's own bytes (and bytes
/// to any descriptor, whole, retrying `EINTR`).
///
/// Foundation's `FileHandle.write(_:)` traps when the write fails (`2>/dev/full`, a full disk
/// behind a redirection), and needs a `Data` copy of the text first. A closed pipe still
/// ends the process with SIGPIPE, as for any filter.
package enum StandardStream {
    /// Writes all of `text` to `descriptor` (`STDOUT_FILENO`, `STDERR_FILENO`).
    /// - Returns: nil, or the `errno` of the write that failed.
    @discardableResult
    package static func write(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Writes all of `bytes` to `descriptor`.
    /// - Returns: nil, or the `errno` of the write that failed.
    @discardableResult
    package static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return n < 0 ? errno : EIO }
            done += n
        }
        return nil
    }
}
