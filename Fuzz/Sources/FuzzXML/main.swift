// libFuzzer target: the XML shim (Sources/CXMLShim, libxml2's reader) through XMLReader.
//
// Input: byte 0 chooses the record path (bits 0-1: person, /people/person, department, p:item) and whether field 'name' is a list; the
// rest is the XML document, written to a scratch file in /dev/shm. Invariants, each a crash
// when broken:
// - reading one record per chunk and 4,096 per chunk gives the same records, values, lines,
//   per-record issues and error;
// - record lines are >= 1 and never go backwards;
// - a document that cannot be read fails with AuditError `.malformedInput` (exit 65) that
//   names the file.
#if canImport(Glibc)
import Glibc
#endif
import Auditor
@_spi(Testing) import AuditorReaders

let scratchPath = "/dev/shm/auditor-fuzz-xml-\(getpid()).xml"
let records = ["person", "/people/person", "department", "p:item"]
let fields = ["id", "name", "phones", "address", "city", "title"]

func fail(_ what: String, _ bytes: [UInt8]) -> Never {
    fatalError("FuzzXML invariant broken: \(what); document \(String(decoding: bytes, as: UTF8.self).debugDescription)")
}

struct ReadOutcome: Equatable {
    var rows: [[String?]] = []
    var locations: [Int64] = []
    var issues: [String] = []
    var error: String?
    var code: AuditError.Code?
}

func read(_ options: XMLReaderOptions, maxRecords: Int) -> ReadOutcome {
    var outcome = ReadOutcome()
    do {
        let reader = try XMLReader(path: scratchPath, displayPath: "fuzz.xml", fields: fields, options: options)
        while let chunk = try reader.nextChunk(maxRecords: maxRecords) {
            for row in 0 ..< chunk.count {
                outcome.rows.append(chunk.columns.map { chunk.string($0[row]) })
            }
            outcome.locations += chunk.locations
            outcome.issues += chunk.issues.map { "\(chunk.firstRecord + $0.row) \($0.ruleID) \($0.value ?? "-")" }
        }
        try reader.finish()
    } catch let error as AuditError {
        outcome.error = "\(error)"
        outcome.code = error.code
    } catch {
        outcome.error = "not an AuditError: \(error)"
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let flags = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let file = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard file >= 0 else { fatalError("cannot create \(scratchPath)") }
    _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    close(file)
    defer { unlink(scratchPath) }

    let options = XMLReaderOptions(
        record: records[Int(flags & 3)],
        fields: ["id": "@id", "phones": .list("phones/phone"), "address": .map("address"),
                 "city": "address/city", "title": "p:title", "name": flags & 4 == 0 ? "name" : .list("name")],
        namespaces: ["p": "urn:example:people"])
    let one = read(options, maxRecords: 1)
    let many = read(options, maxRecords: 4096)
    guard one == many else { fail("one record per chunk \(one) vs 4096 \(many)", bytes) }
    guard zip(many.locations, many.locations.dropFirst()).allSatisfy({ $0 <= $1 }), many.locations.allSatisfy({ $0 >= 1 })
    else { fail("record lines \(many.locations)", bytes) }
    if let error = many.error {
        guard many.code == .malformedInput, error.contains("fuzz.xml") else { fail("error \(error)", bytes) }
    }
    return 0
}
