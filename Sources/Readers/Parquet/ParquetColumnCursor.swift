import Auditor

/// Reads one column chunk of one row group, page by page: a cursor over its (definition
/// level, repetition level, value) entries. Pages are read from the file one at a time
/// (`pread`), so one compressed and one decompressed page per column are held at a time.
final class ParquetColumnCursor {
    let leaf: ParquetLeaf
    let file: ParquetFile
    let meta: ParquetFileMetaData.ColumnChunk
    /// The row group's index, for messages.
    let rowGroup: Int

    private var loaded = false
    /// The file offsets of the next page and of the column chunk's end.
    private var position: Int64 = 0
    private var end: Int64 = 0
    private var dictionary: ParquetValues?
    private var valuesLeft: Int64

    // The current page.
    private(set) var definitions: [UInt8] = []
    private(set) var repetitions: [UInt8] = []
    private(set) var entries = 0
    private(set) var entry = 0
    private(set) var values = ParquetValues()
    private(set) var indices: [Int32]?
    private(set) var valueIndex = 0
    /// Rows begun before the current page (entries with repetition level 0).
    private(set) var rowsBefore = 0
    private var rowsInPage = 0

    init(leaf: ParquetLeaf, file: ParquetFile, meta: ParquetFileMetaData.ColumnChunk, rowGroup: Int) {
        self.leaf = leaf
        self.file = file
        self.meta = meta
        self.rowGroup = rowGroup
        valuesLeft = meta.numValues
    }

    /// True when an entry is available (loads pages as needed); false at the chunk's end.
    @inline(__always)
    func hasEntry() throws(ParquetFailure) -> Bool {
        if entry < entries { return true }
        return try loadPage()
    }

    /// The definition level of the current entry.
    @inline(__always) var definition: Int { definitions.isEmpty ? leaf.maxDefinition : Int(definitions[entry]) }
    /// The repetition level of the current entry.
    @inline(__always) var repetition: Int { repetitions.isEmpty ? 0 : Int(repetitions[entry]) }

    /// Moves past the current entry; returns the index of its value in ``values`` when it has one.
    @inline(__always)
    func advance() -> Int? {
        let defined = definitions.isEmpty || Int(definitions[entry]) == leaf.maxDefinition
        entry += 1
        guard defined else { return nil }
        let i = valueIndex
        valueIndex += 1
        if let indices { return Int(indices[i]) }
        return i
    }

    /// Reads the next data page (skipping index pages, reading a dictionary page first).
    private func loadPage() throws(ParquetFailure) -> Bool {
        if !loaded { try load() }
        rowsBefore += rowsInPage
        while position < end {
            let page = try readNextPage()
            if page { if entries > 0 { return true }; return try loadPage() }
        }
        guard valuesLeft == 0 else {
            throw ParquetFailure("the column chunk ends \(valuesLeft) values before the \(meta.numValues) its metadata declares")
        }
        entries = 0
        entry = 0
        return false
    }

    private func load() throws(ParquetFailure) {
        loaded = true
        var start = meta.dataPageOffset
        if let d = meta.dictionaryPageOffset, d > 0, d < start { start = d }
        let size = meta.totalCompressedSize
        guard size >= 0, start >= 0, size <= file.size, start <= file.size - size else {
            throw ParquetFailure("the column chunk (\(size) bytes at offset \(start)) lies outside the file's \(file.size) bytes")
        }
        position = start
        end = start + size
    }

    /// Reads the next page from the file (its header through a window that grows until the
    /// header fits, then its body): one compressed page per column is held at a time.
    /// - Returns: True for a data page.
    private func readNextPage() throws(ParquetFailure) -> Bool {
        let left = end - position
        var window = min(left, 8192)
        var decoded: (ParquetPageHeader, Int)?
        while decoded == nil {
            let head = try file.read(at: position, count: window)
            let result: Result<(ParquetPageHeader, Int), ThriftCompactReader.Failure> = head.withUnsafeBytes { b in
                do throws(ThriftCompactReader.Failure) { return .success(try ParquetPageHeader.decode(b)) } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let h): decoded = h
            case .failure(let error):
                guard window < left else { throw ParquetFailure("a page header is corrupt: \(error.message)") }
                window = min(left, window * 4)
            }
        }
        guard let (header, headerLength) = decoded else { return false }
        let compressed = Int64(header.compressedSize)
        guard compressed >= 0, compressed <= left - Int64(headerLength), header.uncompressedSize >= 0 else {
            throw ParquetFailure("a page claims \(header.compressedSize) bytes, more than its column chunk has left")
        }
        let body = try file.read(at: position + Int64(headerLength), count: compressed)
        position += Int64(headerLength) + compressed
        return try body.withParquetBytes { b throws(ParquetFailure) in try readPage(header, b) }
    }

    /// Decodes one page's body; returns true for a data page.
    private func readPage(_ header: ParquetPageHeader, _ body: UnsafeRawBufferPointer) throws(ParquetFailure) -> Bool {
        switch header.type {
        case 2:
            guard dictionary == nil else { throw ParquetFailure("a column chunk has two dictionary pages") }
            let data = try ParquetCodecs.decompress(meta.codec, body, size: Int(header.uncompressedSize))
            guard header.encoding == 0 || header.encoding == 2 else {
                throw ParquetFailure("a dictionary page is encoded \(ParquetValues.encodingName(header.encoding)), not PLAIN")
            }
            guard header.numValues >= 0 else { throw ParquetFailure("a dictionary page declares a negative count") }
            var dict = try data.withParquetBytes { d throws(ParquetFailure) in
                try ParquetValues.decode(d, encoding: 0, leaf: leaf, count: Int(header.numValues))
            }
            try checkText(&dict)
            dictionary = dict
            return false
        case 0, 3:
            try dataPage(header, body)
            return true
        default:
            return false   // index pages and unknown kinds carry no values
        }
    }

    private func dataPage(_ h: ParquetPageHeader, _ body: UnsafeRawBufferPointer) throws(ParquetFailure) {
        let n = Int(h.numValues)
        guard n >= 0, Int64(n) <= valuesLeft else {
            throw ParquetFailure("a page declares \(h.numValues) values, more than the \(valuesLeft) left in its column chunk")
        }
        valuesLeft -= Int64(n)
        let page: [UInt8]
        var levelsEnd = 0
        if h.type == 3 {
            let rep = Int(h.repetitionLength), def = Int(h.definitionLength)
            guard rep >= 0, def >= 0, rep + def <= body.count, rep + def <= Int(h.uncompressedSize) else {
                throw ParquetFailure("a v2 page's level lengths exceed the page")
            }
            levelsEnd = rep + def
            let valuesPart = UnsafeRawBufferPointer(rebasing: body[levelsEnd...])
            let rest = h.isCompressed && meta.codec != 0
                ? try ParquetCodecs.decompress(meta.codec, valuesPart, size: Int(h.uncompressedSize) - levelsEnd)
                : Array(valuesPart)
            page = Array(body[..<levelsEnd]) + rest
        } else {
            page = try ParquetCodecs.decompress(meta.codec, body, size: Int(h.uncompressedSize))
        }
        try page.withParquetBytes { p throws(ParquetFailure) in
            var pos = 0
            repetitions = try levels(p, &pos, max: leaf.maxRepetition, count: n, v2: h.type == 3,
                                     length: Int(h.repetitionLength), encoding: h.repetitionEncoding)
            definitions = try levels(p, &pos, max: leaf.maxDefinition, count: n, v2: h.type == 3,
                                     length: Int(h.definitionLength), encoding: h.definitionEncoding)
            if h.type == 3 { pos = levelsEnd }
            var present = n
            if !definitions.isEmpty {
                present = 0
                let maxDef = UInt8(leaf.maxDefinition)
                for d in definitions {
                    guard d <= maxDef else { throw ParquetFailure("a definition level of \(d) is above the column's \(maxDef)") }
                    if d == maxDef { present += 1 }
                }
            }
            if !repetitions.isEmpty {
                let maxRep = UInt8(leaf.maxRepetition)
                rowsInPage = 0
                for (i, r) in repetitions.enumerated() {
                    guard r <= maxRep else { throw ParquetFailure("a repetition level of \(r) is above the column's \(maxRep)") }
                    if r == 0 { rowsInPage += 1 } else if i == 0 && rowsBefore == 0 && entries == 0 {
                        throw ParquetFailure("the column chunk starts inside a row (repetition level \(r))")
                    }
                }
            } else {
                rowsInPage = n
            }
            let data = UnsafeRawBufferPointer(rebasing: p[pos...])
            switch h.encoding {
            case 2, 8:
                guard let dictionary else { throw ParquetFailure("a dictionary-encoded page without a dictionary page") }
                var idx = [Int32](repeating: 0, count: present)
                if present > 0 {
                    guard data.count >= 1 else { throw ParquetFailure("a dictionary-encoded page is empty") }
                    var at = 1
                    try idx.withUnsafeMutableBufferPointer { (b: inout UnsafeMutableBufferPointer<Int32>) throws(ParquetFailure) in
                        guard let base = b.baseAddress else { return }
                        try ParquetEncodings.hybrid(data, &at, end: data.count, width: Int(data[0]), count: present, into: base)
                    }
                    let limit = Int32(truncatingIfNeeded: dictionary.count)
                    for i in idx where i < 0 || i >= limit {
                        throw ParquetFailure("a dictionary index \(i) is outside the dictionary of \(dictionary.count) values")
                    }
                }
                values = dictionary
                indices = idx
            default:
                var decoded = try ParquetValues.decode(data, encoding: h.encoding, leaf: leaf, count: present)
                try checkText(&decoded)
                values = decoded
                indices = nil
            }
        }
        entries = n
        entry = 0
        valueIndex = 0
    }

    private func levels(_ p: UnsafeRawBufferPointer, _ pos: inout Int, max: Int, count: Int, v2: Bool, length: Int,
                        encoding: Int32) throws(ParquetFailure) -> [UInt8] {
        guard max > 0 else { return [] }
        let width = ParquetEncodings.bitWidth(max)
        var end: Int
        if v2 {
            end = pos + length
        } else {
            guard encoding == 3 else {
                throw ParquetFailure("levels encoded \(ParquetValues.encodingName(encoding)) (only RLE is read)")
            }
            guard p.count - pos >= 4 else { throw ParquetFailure("a page's levels are cut short") }
            let l = Int(p.loadUnaligned(fromByteOffset: pos, as: UInt32.self))
            pos += 4
            end = pos + l
        }
        guard end <= p.count else { throw ParquetFailure("a page's levels claim more bytes than the page has") }
        var out = [UInt8](repeating: 0, count: count)
        try out.withUnsafeMutableBufferPointer { (b: inout UnsafeMutableBufferPointer<UInt8>) throws(ParquetFailure) in
            guard let base = b.baseAddress else { return }
            try ParquetEncodings.hybrid(p, &pos, end: end, width: width, count: count, into: base)
        }
        pos = end
        return out
    }

    /// STRING values must be UTF-8: the whole buffer is checked at once, and no value may
    /// start with a continuation byte (then no sequence crosses from one value to the next).
    private func checkText(_ v: inout ParquetValues) throws(ParquetFailure) {
        guard leaf.kind == .string, !v.data.isEmpty else { return }
        let ok = v.data.withUnsafeBufferPointer { d -> Bool in
            guard let base = d.baseAddress, CSVUTF8.isValid(base, from: 0, to: d.count) else { return false }
            for o in v.offsets.dropLast() where o < d.count && d[o] & 0xC0 == 0x80 { return false }
            return true
        }
        guard ok else { throw ParquetFailure("a STRING value is not valid UTF-8") }
    }
}
