import Auditor
import Testing

/// Integer keys, whose single-attribute columns take the one-pass path of `KeyEncoder`:
/// equal numbers are equal keys whatever their text, numbers beyond 64 bits fall back to the
/// text encoding (leading zeros ignored), and invalid or missing values are no key; the same
/// counts for every chunk size and thread count.
@Suite struct KeyEncoderTests {
    static let rules = """
        version: 1
        sources:
          people: { path: people.mem }
          orders: { path: orders.mem }
        entities:
          Person:
            source: people
            key: [id]
            idPrefix: person
            attributes:
              id: { type: integer, unique: true }
          Order:
            source: orders
            key: [n]
            idPrefix: order
            attributes:
              n: { type: integer, required: true }
              person: { type: integer }
            relationships:
              buyer: { attribute: person, references: Person.id }
        """

    @Test(arguments: [(1, 1), (2, 1), (3, 2), (64, 2)])
    func integerKeysOfEveryTextForm(_ chunkSize: Int, _ jobs: Int) throws {
        let ids: [String?] = ["5", "05", "99999999999999999999", "099999999999999999999", "-0", "0", "x", nil,
                              "-99999999999999999999", "-99999999999999999998", "7", "9223372036854775807", "09223372036854775807"]
        let people = ids.map { [$0] }
        // Buyers: present (5, 0, 7, the big one written another way), absent (8, a bigger one).
        let buyers: [String?] = ["5", "00", "7", "0099999999999999999999", "8", "999999999999999999999", nil, "-0"]
        let orders = buyers.enumerated().map { [String($0.offset), $0.element] }
        let r = try audit(Self.rules, tables: ["people": (["id"], people), "orders": (["n", "person"], orders)],
                          jobs: jobs, chunkSize: chunkSize)
        // Duplicates: 05 (of 5), 0999… (of 999…), 0 (of -0), 0922… (of 9223372036854775807); the two
        // negative numbers beyond 64 bits saturate alike but are different keys.
        #expect(r.counts["person.id.unique"] == 4)
        #expect(r.counts["person.id.type"] == 1)
        #expect(r.counts["order.person.fk"] == 2)
    }
}
