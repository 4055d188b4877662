/// The parts of Parquet's footer (`FileMetaData`, apache/parquet-format `parquet.thrift`) and
/// page headers that the reader uses, decoded with ``ThriftCompactReader``. Fields the reader
/// does not need (statistics, indexes, bloom filters) are skipped.
struct ParquetFileMetaData {
    var schema: [SchemaElement] = []
    var numRows: Int64 = 0
    var rowGroups: [RowGroup] = []

    struct SchemaElement {
        var type: Int32?
        var typeLength: Int32?
        var repetition: Int32?
        var name = ""
        var numChildren: Int32?
        var convertedType: Int32?
        var scale: Int32?
        var precision: Int32?
        var logical: LogicalType?
    }

    /// `LogicalType` (a union): the member's field id and the parameters that matter.
    struct LogicalType {
        var id: Int16
        var scale: Int32 = 0
        var precision: Int32 = 0
        /// TimeUnit: 1 millis, 2 micros, 3 nanos.
        var unit: Int16 = 0
        var bitWidth: Int8 = 0
        var signed = true
    }

    struct RowGroup {
        var columns: [ColumnChunk] = []
        var numRows: Int64 = 0
    }

    struct ColumnChunk {
        var filePath: String?
        var type: Int32 = 0
        var path: [String] = []
        var codec: Int32 = 0
        var numValues: Int64 = 0
        var totalCompressedSize: Int64 = 0
        var dataPageOffset: Int64 = 0
        var dictionaryPageOffset: Int64?
        var hasMetaData = false
    }

    typealias R = ThriftCompactReader
    typealias F = ThriftCompactReader.Failure

    static func decode(_ bytes: UnsafeRawBufferPointer) throws(F) -> ParquetFileMetaData {
        var r = R(bytes)
        var m = ParquetFileMetaData()
        try r.readStruct { r, id, kind throws(F) in
            switch (id, kind) {
            case (2, .list): m.schema = try r.readList { r, _ throws(F) in try schemaElement(&r) }
            case (3, .i64): m.numRows = try r.i64()
            case (4, .list): m.rowGroups = try r.readList { r, _ throws(F) in try rowGroup(&r) }
            default: try r.skip(kind)
            }
        }
        return m
    }

    static func schemaElement(_ r: inout R) throws(F) -> SchemaElement {
        var e = SchemaElement()
        try r.readStruct { r, id, kind throws(F) in
            switch (id, kind) {
            case (1, .i32): e.type = try r.i32()
            case (2, .i32): e.typeLength = try r.i32()
            case (3, .i32): e.repetition = try r.i32()
            case (4, .binary): e.name = try r.string()
            case (5, .i32): e.numChildren = try r.i32()
            case (6, .i32): e.convertedType = try r.i32()
            case (7, .i32): e.scale = try r.i32()
            case (8, .i32): e.precision = try r.i32()
            case (10, .structure): e.logical = try logicalType(&r)
            default: try r.skip(kind)
            }
        }
        return e
    }

    static func logicalType(_ r: inout R) throws(F) -> LogicalType? {
        var result: LogicalType?
        try r.readStruct { r, id, kind throws(F) in
            guard kind == .structure else { try r.skip(kind); return }
            var t = LogicalType(id: id)
            try r.readStruct { r, field, k throws(F) in
                switch (id, field, k) {
                case (5, 1, .i32): t.scale = try r.i32()
                case (5, 2, .i32): t.precision = try r.i32()
                case (7, 2, .structure), (8, 2, .structure):
                    try r.readStruct { r, unit, uk throws(F) in t.unit = unit; try r.skip(uk) }
                case (10, 1, .byte): t.bitWidth = Int8(bitPattern: try r.byte())
                case (10, 2, _):
                    if k == .boolTrue || k == .boolFalse { t.signed = r.bool(k) } else { try r.skip(k) }
                default: try r.skip(k)
                }
            }
            result = t
        }
        return result
    }

    static func rowGroup(_ r: inout R) throws(F) -> RowGroup {
        var g = RowGroup()
        try r.readStruct { r, id, kind throws(F) in
            switch (id, kind) {
            case (1, .list): g.columns = try r.readList { r, _ throws(F) in try columnChunk(&r) }
            case (3, .i64): g.numRows = try r.i64()
            default: try r.skip(kind)
            }
        }
        return g
    }

    static func columnChunk(_ r: inout R) throws(F) -> ColumnChunk {
        var c = ColumnChunk()
        try r.readStruct { r, id, kind throws(F) in
            switch (id, kind) {
            case (1, .binary): c.filePath = try r.string()
            case (3, .structure):
                c.hasMetaData = true
                try r.readStruct { r, field, k throws(F) in
                    switch (field, k) {
                    case (1, .i32): c.type = try r.i32()
                    case (3, .list): c.path = try r.readList { r, _ throws(F) in try r.string() }
                    case (4, .i32): c.codec = try r.i32()
                    case (5, .i64): c.numValues = try r.i64()
                    case (7, .i64): c.totalCompressedSize = try r.i64()
                    case (9, .i64): c.dataPageOffset = try r.i64()
                    case (11, .i64): c.dictionaryPageOffset = try r.i64()
                    default: try r.skip(k)
                    }
                }
            default: try r.skip(kind)
            }
        }
        return c
    }
}

/// A page header (`PageHeader` with its data, data v2 and dictionary headers).
struct ParquetPageHeader {
    /// 0 data, 1 index, 2 dictionary, 3 data v2.
    var type: Int32 = -1
    var uncompressedSize: Int32 = 0
    var compressedSize: Int32 = 0
    var numValues: Int32 = 0
    var encoding: Int32 = 0
    var definitionEncoding: Int32 = 3
    var repetitionEncoding: Int32 = 3
    // v2
    var numNulls: Int32 = 0
    var numRows: Int32 = 0
    var definitionLength: Int32 = 0
    var repetitionLength: Int32 = 0
    var isCompressed = true

    /// Decodes a header at the start of `bytes`.
    /// - Returns: The header and its length in bytes.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(ThriftCompactReader.Failure) -> (ParquetPageHeader, Int) {
        typealias F = ThriftCompactReader.Failure
        var r = ThriftCompactReader(bytes)
        var h = ParquetPageHeader()
        try r.readStruct { r, id, kind throws(F) in
            switch (id, kind) {
            case (1, .i32): h.type = try r.i32()
            case (2, .i32): h.uncompressedSize = try r.i32()
            case (3, .i32): h.compressedSize = try r.i32()
            case (5, .structure), (7, .structure):
                try r.readStruct { r, field, k throws(F) in
                    switch (field, k) {
                    case (1, .i32): h.numValues = try r.i32()
                    case (2, .i32): h.encoding = try r.i32()
                    case (3, .i32) where id == 5: h.definitionEncoding = try r.i32()
                    case (4, .i32) where id == 5: h.repetitionEncoding = try r.i32()
                    default: try r.skip(k)
                    }
                }
            case (8, .structure):
                try r.readStruct { r, field, k throws(F) in
                    switch (field, k) {
                    case (1, .i32): h.numValues = try r.i32()
                    case (2, .i32): h.numNulls = try r.i32()
                    case (3, .i32): h.numRows = try r.i32()
                    case (4, .i32): h.encoding = try r.i32()
                    case (5, .i32): h.definitionLength = try r.i32()
                    case (6, .i32): h.repetitionLength = try r.i32()
                    case (7, _) where k == .boolTrue || k == .boolFalse: h.isCompressed = r.bool(k)
                    default: try r.skip(k)
                    }
                }
            default: try r.skip(kind)
            }
        }
        return (h, r.position)
    }
}
