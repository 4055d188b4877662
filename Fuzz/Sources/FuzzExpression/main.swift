// libFuzzer target: the expression language (Sources/Auditor/Expressions): lexer, parser,
// type checker and evaluator, as `when:`/`assert:` and `rowCount`-style rules use it.
//
// Input: byte 0 chooses boolean (even) or any result type (odd); the rest is the expression
// text. Invariants, each a crash when broken:
// - an expression that does not compile throws a Diagnostic with a message, located inside
//   the text (line and column counted from the mark the text starts at);
// - one that compiles evaluates every row of a chunk of valid, invalid, missing and typed
//   values to exactly one outcome per row, and renders one text (or nil) per row.
@_spi(Testing) import Auditor

let attributes = [
    ExpressionAttribute(name: "age", type: .integer), ExpressionAttribute(name: "name", type: .string),
    ExpressionAttribute(name: "price", type: .decimal), ExpressionAttribute(name: "active", type: .boolean),
    ExpressionAttribute(name: "born", type: .date), ExpressionAttribute(name: "seen", type: .datetime),
]
let rows: [[String?]] = [
    ["42", "Ada", "19.99", "true", "1990-05-17", "2024-02-29T23:59:59.5Z"],
    [nil, "", "-0.000", "false", "2000-02-29", "1970-01-01T00:00:00Z"],
    ["abc", "ß\u{301}", "1e400", "yes", "2023-02-29", "2024-13-01T00:00:00+01:00"],
    ["-9223372036854775808", nil, "99999999999999999999999", nil, "0001-01-01", "9999-12-31T23:59:59.999999999-14:00"],
]
let mark = ConfigMark(file: "fuzz.yml", line: 10, column: 5)
let chunk: RecordChunk = {
    var builder = RecordChunkBuilder(columnCount: attributes.count + 1, firstRecord: 0)
    for (r, row) in rows.enumerated() {
        builder.beginRecord(location: Int64(r + 2))
        for (c, value) in row.enumerated() {
            if let value { builder.setText(c, value) }
        }
    }
    builder.beginRecord(location: 6)     // typed cells, as SQLite gives them
    builder.set(0, .integer(Int64.max))
    builder.set(2, .real(-1.5))
    builder.set(3, .integer(1))
    builder.set(1, .real(.nan))
    return builder.build()
}()
let skip = (0 ..< chunk.count).map { $0 == 1 }

func fail(_ what: String, _ source: String) -> Never {
    fatalError("FuzzExpression invariant broken: \(what); expression \(source.debugDescription)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let source = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let expecting: ExpressionType? = data[0] & 1 == 0 ? .boolean : nil
    let compiled: CompiledExpression
    do throws(Diagnostic) {
        compiled = try ExpressionCompiler.compile(source, mark: mark, attributes: attributes, now: 1_700_000_000,
                                                  expecting: expecting)
    } catch {
        let lines = source.utf8.filter { $0 == 10 }.count
        guard !error.message.isEmpty, error.mark.file == mark.file,
              error.mark.line >= mark.line, error.mark.line <= mark.line + lines,
              error.mark.column >= mark.column, error.mark.column <= mark.column + source.unicodeScalars.count
        else { fail("diagnostic \(error) out of range", source) }
        return 0
    }
    if expecting == .boolean, compiled.resultType != .boolean { fail("result type \(compiled.resultType)", source) }
    let columns = compiled.inputs.map { name in attributes.firstIndex { $0.name == name } ?? attributes.count }
    let outcomes = compiled.evaluate(chunk, columns: columns, skip: skip)
    guard outcomes.count == chunk.count, outcomes[1] == .skipped else { fail("outcomes \(outcomes)", source) }
    let texts = compiled.values(chunk, columns: columns, skip: skip)
    guard texts.count == chunk.count else { fail("texts \(texts)", source) }
    return 0
}
