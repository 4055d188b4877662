import Dispatch
import Foundation

/// Hashes input files (SHA-256) on a background thread while the audit runs, so recording
/// them in the history adds little to a run: at ~280 MB/s a 130 MB export hashes in ~0.45 s,
/// about a third of its audit, which the audit's own reading hides (both read the file
/// through the page cache).
///
/// A file that cannot be hashed (missing, unreadable) simply has no hash: the audit reports
/// the input error itself. An SQLite input is hashed as its main file only (not `-wal`).
final class InputHashing: @unchecked Sendable {
    // @unchecked: `result` is written once by the background task before `group` leaves, and
    // read only after `group.wait()`; the group's enter/leave/wait order every access.
    private let group = DispatchGroup()
    private var result = Hashes()

    struct Hashes: Sendable {
        var byPath: [String: String] = [:]
        var bytes: Int64 = 0
        var seconds: Double = 0
        /// How long ``InputHashing/wait()`` blocked (hashing outlasted the audit by this much).
        var waited: Double = 0
    }

    init(paths: [String]) {
        group.enter()
        DispatchQueue.global(qos: .utility).async { [self] in
            var hashes = Hashes()
            let clock = ContinuousClock.now
            for p in paths {
                guard let digest = try? Digest.sha256Hex(fileAtPath: p) else { continue }
                hashes.byPath[p] = digest
                hashes.bytes += (try? FileManager.default.attributesOfItem(atPath: p)[.size] as? NSNumber)?.int64Value ?? 0
            }
            hashes.seconds = Self.seconds(ContinuousClock.now - clock)
            result = hashes
            group.leave()
        }
    }

    /// Waits for the hashes.
    func wait() -> Hashes {
        let before = ContinuousClock.now
        group.wait()
        var r = result
        r.waited = Self.seconds(ContinuousClock.now - before)
        return r
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
