#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// Hashes input files (SHA-256) while the audit runs, on a thread that only uses the CPU
/// the audit leaves idle, so that recording them in the history costs the audit next to
/// nothing (issue 20: at most 5 %).
///
/// - The background thread runs under Linux's `SCHED_IDLE` policy: any other runnable thread
///   goes first, so it never takes a core from the audit's workers; it fills their gaps
///   (start-up, merges, the report).
/// - It publishes its progress (file, offset, digest state) after every MiB. ``wait()`` takes
///   the last one over and finishes the work on the calling thread, at its normal priority:
///   an idle-priority thread may starve on a busy machine, and the run must not wait for it.
///   (An unprivileged thread cannot leave `SCHED_IDLE` again, so it is not boosted; it sees
///   the takeover at its next MiB and stops.)
///
/// A file that cannot be hashed (missing, unreadable, a FIFO or device) simply has no hash:
/// the audit reports the input error itself. An SQLite input is hashed as its main file only
/// (not `-wal`).
final class InputHashing: @unchecked Sendable {
    // @unchecked: `published` and `takenOver` are only touched under `lock`.
    private let lock = NSLock()
    private var published = Progress()
    private var takenOver = false
    private let paths: [String]
    private let started = ContinuousClock.now

    struct Hashes: Sendable {
        var byPath: [String: String] = [:]
        var bytes: Int64 = 0
        var seconds: Double = 0
        /// How long ``InputHashing/wait()`` took (hashing outlasted the audit by this much).
        var waited: Double = 0
    }

    /// How far the hashing went: every file before `index` is done, `digest` holds the
    /// first `offset` bytes of file `index`.
    struct Progress {
        var index = 0
        var offset: Int64 = 0
        var digest = Digest.SHA256Stream()
        var hashes = Hashes()
    }

    /// Bytes hashed between two publications of the progress.
    static let step = 1 << 20
    /// Bytes per `pread(2)`: small enough for the buffer to stay in the core's cache.
    static let readSize = 1 << 15

    /// Starts hashing `paths` in the background.
    /// - Parameter background: false to leave all the work to ``wait()`` (tests).
    init(paths: [String], background: Bool = true) {
        self.paths = paths
        guard background, !paths.isEmpty else { return }
        let thread = Thread { [self] in
            var idle = sched_param()
            _ = sched_setscheduler(0, Self.schedIdle, &idle) // this thread only (Linux: 0 = the caller)
            var progress = Progress()
            var file = OpenFile()
            while true {
                let more = advance(&progress, file: &file, limit: Self.step)
                lock.lock()
                published = progress
                let stop = takenOver
                lock.unlock()
                if stop || !more { break }
            }
            file.release()
        }
        thread.name = "auditor.hash"
        thread.start()
    }

    /// `SCHED_IDLE` (linux/sched.h); Glibc does not export it to Swift.
    private static let schedIdle: Int32 = 5

    /// Takes the hashing over from the background thread and finishes it here.
    func wait() -> Hashes {
        let before = ContinuousClock.now
        var progress = Progress()
        // The background thread holds the lock only to copy its progress; were it preempted
        // there, start again rather than wait for an idle-priority thread.
        for _ in 0 ..< 1000 {
            if lock.try() {
                takenOver = true
                progress = published
                lock.unlock()
                break
            }
            sched_yield()
        }
        var file = OpenFile()
        while advance(&progress, file: &file, limit: Int.max) {}
        file.release()
        var hashes = progress.hashes
        let now = ContinuousClock.now
        hashes.seconds = Self.seconds(now - started)
        hashes.waited = Self.seconds(now - before)
        return hashes
    }

    /// The file being read by one thread.
    private struct OpenFile {
        var index = -1
        var descriptor: Int32 = -1
        var buffer: UnsafeMutableRawBufferPointer?

        mutating func release() {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
            index = -1
            buffer?.deallocate()
            buffer = nil
        }
    }

    /// Hashes up to `limit` more bytes.
    /// - Returns: False once every file is done.
    private func advance(_ p: inout Progress, file: inout OpenFile, limit: Int) -> Bool {
        var budget = limit
        while p.index < paths.count {
            if file.index != p.index {
                if file.descriptor >= 0 { close(file.descriptor) }
                file.index = p.index
                file.descriptor = (try? InputFile.openForHashing(paths[p.index])) ?? -1
            }
            guard file.descriptor >= 0 else {
                next(&p)     // cannot be hashed: no hash
                continue
            }
            let buffer = file.buffer ?? .allocate(byteCount: Self.readSize, alignment: 64)
            file.buffer = buffer
            while budget > 0 {
                let n = pread(file.descriptor, buffer.baseAddress, buffer.count, off_t(p.offset))
                if n < 0, errno == EINTR { continue }
                if n < 0 {
                    next(&p)
                    break
                }
                if n == 0 {
                    p.hashes.byPath[paths[p.index]] = p.digest.hex()
                    p.hashes.bytes += p.offset
                    next(&p)
                    break
                }
                p.digest.update(UnsafeRawBufferPointer(rebasing: buffer[0 ..< n]))
                p.offset += Int64(n)
                budget -= n
            }
            if budget <= 0 { return true }
        }
        return false
    }

    private func next(_ p: inout Progress) {
        p.index += 1
        p.offset = 0
        p.digest = Digest.SHA256Stream()
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// Whether two paths name the same file: the same device and inode when both exist, else the
/// same absolute, standardized path.
enum SameFile {
    static func check(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        if stat(a, &sa) == 0, stat(b, &sb) == 0 { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
        return absolute(a) == absolute(b)
    }

    private static func absolute(_ p: String) -> String {
        let full = p.hasPrefix("/") ? p : FileManager.default.currentDirectoryPath + "/" + p
        return URL(fileURLWithPath: full).standardizedFileURL.path
    }
}
