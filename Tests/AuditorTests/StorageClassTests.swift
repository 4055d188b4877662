import Auditor
import Testing

/// Swift validators read SQLite values by storage class, as the engine's type checks do
/// (README "Types"): TEXT '5' is not an integer in a chunk with storage classes, and is in a
/// CSV chunk.
@Suite struct StorageClassTests {
    func chunk(storageClasses: Bool) -> RecordChunk {
        var b = RecordChunkBuilder(columnCount: 2, firstRecord: 0)
        b.beginRecord(location: 1)
        b.set(0, .integer(5))
        b.set(1, .integer(1))
        b.beginRecord(location: 2)
        b.setText(0, "5")
        b.setText(1, "true")
        var c = b.build()
        c.storageClasses = storageClasses
        return c
    }

    let layout = RecordLayout(columns: ["n": 0, "flag": 1], types: ["n": .integer, "flag": .boolean])

    @Test func recordViewsOfSQLiteChunksDoNotReadTextAsNumbers() {
        let sqlite = chunk(storageClasses: true)
        let integer = RecordView(chunk: sqlite, row: 0, layout: layout)
        #expect(integer["n"] == .integer(5))
        #expect(integer.boolean("flag") == true)
        let text = RecordView(chunk: sqlite, row: 1, layout: layout)
        #expect(text["n"] == .string("5"))
        #expect(text.integer("n") == nil)
        #expect(text.decimal("n") == nil)
        #expect(text.boolean("flag") == nil)
        #expect(text.string("n") == "5")
        // The same text in a CSV chunk is read as the declared type.
        let csv = RecordView(chunk: chunk(storageClasses: false), row: 1, layout: layout)
        #expect(csv["n"] == .integer(5))
        #expect(csv.boolean("flag") == true)
    }
}
