@testable import Auditor
import Testing

/// Did-you-mean: a typo's closest candidate, where a swap of two neighbouring letters (`nmae`)
/// is one edit, as a letter left out, added or replaced is.
@Suite("Did-you-mean suggestions")
struct SuggestTests {
    @Test("The distance: insertions, deletions, replacements and swaps of neighbours each count one", arguments: [
        ("name", "name", 0), ("nmae", "name", 1), ("nme", "name", 1), ("namex", "name", 1), ("nbme", "name", 1),
        ("", "abc", 3), ("abc", "", 3), ("ab", "ba", 1), ("abc", "ca", 3), ("salray", "salary", 1),
        ("maxLenght", "maxLength", 1), ("emial", "email", 1), ("kitten", "sitting", 3), ("Zoë", "Zëo", 1),
    ])
    func distance(_ a: String, _ b: String, _ expected: Int) {
        #expect(Suggest.distance(Array(a), Array(b)) == expected)
        #expect(Suggest.distance(Array(b), Array(a)) == expected)
    }

    @Test("A swapped pair in a short name is suggested; a word far from every candidate is not")
    func closest() {
        let columns = ["id", "name", "amount", "when"]
        #expect(Suggest.closest(to: "nmae", in: columns) == "name")
        #expect(Suggest.closest(to: "amuont", in: columns) == "amount")
        #expect(Suggest.closest(to: "Name", in: columns) == "name")
        #expect(Suggest.closest(to: "city", in: columns) == nil)
        #expect(Suggest.closest(to: "di", in: columns) == "id")
    }
}
