import Auditor
import CXMLShim

/// A ``ByteSource`` as libxml2's input (`axml_open_stream`): for a compressed file or standard
/// input, the XML reader hands libxml2 the decompressed bytes through ``read``. The stream's
/// own error (a corrupt or truncated compressed file) is kept in ``error``: libxml2 only
/// sees an I/O failure, and the reader reports this error instead.
final class XMLStreamFeed {
    let source: any ByteSource
    /// The error the source threw, if any.
    var error: AuditError?

    init(_ source: any ByteSource) {
        self.source = source
    }

    deinit { source.close() }

    /// The C callback: `context` is an unretained `XMLStreamFeed` that the reader keeps alive
    /// (it outlives the libxml2 reader, freed in the XML reader's `deinit` first).
    static let read: axml_read_fn = { context, buffer, length in
        guard let context, let buffer, length > 0 else { return length == 0 ? 0 : -1 }
        let feed = Unmanaged<XMLStreamFeed>.fromOpaque(context).takeUnretainedValue()
        do throws(AuditError) {
            let bytes = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
            return Int32(try feed.source.read(into: bytes, count: Int(length)))
        } catch {
            feed.error = error
            return -1
        }
    }
}
