import Auditor

/// A single-byte text encoding that a CSV file may be written in (`csv: { encoding: … }`),
/// read as UTF-8.
package enum SingleByteEncoding: String, Sendable, CaseIterable {
    /// ISO-8859-1: every byte is the code point of its value.
    case latin1 = "latin-1"
    /// Windows-1252, as Excel on Windows saves "CSV": Latin-1 but for 0x80–0x9F, which hold
    /// `€`, `‚`, `ƒ`, `„`, `…`, `†`, `‡`, `ˆ`, `‰`, `Š`, `‹`, `Œ`, `Ž`, `‘`, `’`, `“`, `”`, `•`,
    /// `–`, `—`, `˜`, `™`, `š`, `›`, `œ`, `ž` and `Ÿ`. The five bytes it leaves undefined (0x81,
    /// 0x8D, 0x8F, 0x90, 0x9D) are read as the code points of their value, as browsers read them.
    case windows1252 = "windows-1252"

    /// The encoding an `encoding:` name means (case and `-`/`_` ignored), nil for UTF-8 or an unknown name.
    init?(name: String) {
        switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "latin-1", "latin1", "iso-8859-1", "iso8859-1", "l1": self = .latin1
        case "windows-1252", "cp1252", "win-1252", "windows1252": self = .windows1252
        default: return nil
        }
    }

    /// The code point of byte `b`.
    func scalar(_ b: UInt8) -> UInt32 {
        guard self == .windows1252, b >= 0x80, b < 0xA0 else { return UInt32(b) }
        return Self.windows1252High[Int(b - 0x80)]
    }

    /// Windows-1252's code points for 0x80–0x9F (the undefined ones as their own value).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}

/// A ``ByteSource`` that reads another one written in a ``SingleByteEncoding`` and gives its
/// text as UTF-8: ASCII as it is, every other byte as two or three bytes. Offsets, lines and
/// columns are then those of the UTF-8 text; ``rawBytesRead`` stays the file's.
package final class TranscodingSource: ByteSource {
    private let inner: any ByteSource
    private let encoding: SingleByteEncoding
    /// Raw bytes read and not yet given out.
    private var pending: UnsafeMutablePointer<UInt8>
    private let pendingCapacity = 1 << 16
    private var pendingStart = 0, pendingEnd = 0

    package init(_ inner: any ByteSource, encoding: SingleByteEncoding) {
        self.inner = inner
        self.encoding = encoding
        pending = .allocate(capacity: pendingCapacity)
    }

    deinit { pending.deallocate() }

    package var displayPath: String { inner.displayPath }
    package var compression: InputCompression { inner.compression }
    package var rawBytesRead: Int64 { inner.rawBytesRead }
    package var totalBytes: Int64? { inner.totalBytes }
    package var watch: FileChangeWatch? { inner.watch }
    package var rawAtEnd: Bool { inner.rawAtEnd }

    /// The bytes of a character that did not fit in the last read (at most 2), given first.
    private var carry: (UInt8, UInt8) = (0, 0)
    private var carried = 0

    /// - Complexity: O(`count`).
    package func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(AuditError) -> Int {
        guard count > 0 else { return 0 }
        var written = 0
        while carried > 0, written < count {
            buffer[written] = carry.0
            carry.0 = carry.1
            carried -= 1
            written += 1
        }
        // Fills `count` unless the input ends: a short read tells the several-thread path that
        // the file ended (``CSVInput/fill()``), and blocks of one raw read each would be small.
        while written < count {
            if pendingStart == pendingEnd {
                pendingStart = 0
                pendingEnd = try inner.read(into: pending, count: pendingCapacity)
                if pendingEnd == 0 { return written }
            }
            written = transcode(into: buffer, from: written, count: count)
        }
        return written
    }

    /// Transcodes pending bytes into `buffer[written..<count]`.
    /// - Returns: The new `written`.
    private func transcode(into buffer: UnsafeMutablePointer<UInt8>, from start: Int, count: Int) -> Int {
        var written = start
        while pendingStart < pendingEnd, written < count {
            // ASCII eight bytes at a time: most of a CSV file.
            while pendingEnd - pendingStart >= 8, count - written >= 8 {
                let word = UnsafeRawPointer(pending + pendingStart).loadUnaligned(as: UInt64.self)
                guard word & 0x8080_8080_8080_8080 == 0 else { break }
                UnsafeMutableRawPointer(buffer + written).storeBytes(of: word, as: UInt64.self)
                pendingStart += 8
                written += 8
            }
            guard pendingStart < pendingEnd, written < count else { break }
            let b = pending[pendingStart]
            pendingStart += 1
            if b < 0x80 {
                buffer[written] = b
                written += 1
                continue
            }
            let c = encoding.scalar(b)
            let bytes: (UInt8, UInt8, UInt8) = c < 0x800
                ? (UInt8(0xC0 | (c >> 6)), UInt8(0x80 | (c & 0x3F)), 0)
                : (UInt8(0xE0 | (c >> 12)), UInt8(0x80 | ((c >> 6) & 0x3F)), UInt8(0x80 | (c & 0x3F)))
            let n = c < 0x800 ? 2 : 3
            // What does not fit waits for the next read.
            let room = count - written
            buffer[written] = bytes.0
            if room >= 2 { buffer[written + 1] = bytes.1 }
            if room >= 3, n == 3 { buffer[written + 2] = bytes.2 }
            let given = min(n, room)
            written += given
            switch (n, given) {
            case (2, 1): (carry, carried) = ((bytes.1, 0), 1)
            case (3, 1): (carry, carried) = ((bytes.1, bytes.2), 2)
            case (3, 2): (carry, carried) = ((bytes.2, 0), 1)
            default: break
            }
        }
        return written
    }

    package func close() { inner.close() }
}
