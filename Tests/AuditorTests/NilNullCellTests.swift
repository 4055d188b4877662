import Auditor
import Testing

/// Issue 22: an explicit null is a `.missing` cell with the payload 1 (`Cell.null`): every
/// reader of cells that checks the tag sees it as missing, and `RecordView` tells it apart.
@Suite struct NilNullCellTests {
    @Test("Cell.null is missing and null; Cell.missing is missing only; both read as Value.null")
    func cells() {
        #expect(Cell.null.isMissing && Cell.null.isNull && Cell.null.tag == .missing)
        #expect(Cell.missing.isMissing && !Cell.missing.isNull)
        #expect(Cell.null != Cell.missing)
        let b = RecordChunkBuilder(columnCount: 1, firstRecord: 0)
        #expect(Value(cell: .null, in: b.build()) == .null && Value(cell: .missing, in: b.build()) == .null)
        #expect(b.build().string(.null) == nil)
    }

    @Test("RecordView.isExplicitNull and isMissing, for Swift hooks")
    func recordView() {
        var b = RecordChunkBuilder(columnCount: 2, firstRecord: 0)
        b.beginRecord(location: 1)
        b.set(0, .null)                 // a: explicit null; b: absent
        b.beginRecord(location: 2)
        b.setText(0, "")                // a: empty text, present
        b.setText(1, "x")
        let layout = RecordLayout(columns: ["a": 0, "b": 1], types: [:])
        let first = RecordView(chunk: b.build(), row: 0, layout: layout)
        #expect(first.isExplicitNull("a") && first.isMissing("a"))
        #expect(!first.isExplicitNull("b") && first.isMissing("b"))
        let second = RecordView(chunk: b.build(), row: 1, layout: layout)
        #expect(!second.isExplicitNull("a") && !second.isMissing("a"))
        #expect(!second.isMissing("b") && second.isMissing("unknown") && !second.isExplicitNull("unknown"))
    }
}
