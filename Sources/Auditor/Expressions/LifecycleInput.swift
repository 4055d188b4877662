/// The names record-rule expressions give the previous snapshot's values: `previous.salary`
/// (the value the record had) and `changed(salary)` (whether it differs). Both are inputs of
/// a compiled expression like attributes, under names no attribute can be written as in an
/// expression, and only an `on: [update]` rule may read them (an updated record is the only
/// one with a previous value to compare).
enum LifecycleInput: Equatable {
    /// An attribute of the record.
    case current(String)
    /// `previous.<name>`.
    case previous(String)
    /// `changed(<name>)`.
    case changed(String)

    static let previousWord = "previous"
    static let changedFunction = "changed"

    /// The input name of `previous.<attribute>`.
    static func previousName(_ attribute: String) -> String { previousWord + "." + attribute }
    /// The input name of `changed(<attribute>)`.
    static func changedName(_ attribute: String) -> String { changedFunction + "(" + attribute + ")" }

    /// Reads an input name (an attribute's name unless it has one of the two forms above).
    init(_ name: String) {
        if name.hasPrefix(Self.previousWord + ".") {
            self = .previous(String(name.dropFirst(Self.previousWord.count + 1)))
        } else if name.hasPrefix(Self.changedFunction + "("), name.hasSuffix(")") {
            self = .changed(String(name.dropFirst(Self.changedFunction.count + 1).dropLast()))
        } else {
            self = .current(name)
        }
    }

    /// The attribute the input reads.
    var attribute: String {
        switch self {
        case .current(let a), .previous(let a), .changed(let a): return a
        }
    }

    /// True for `previous.x` and `changed(x)`.
    var readsPrevious: Bool { self != .current(attribute) }

    /// The attributes an expression may read, with the previous snapshot's forms of each.
    static func attributes(_ attributes: [ExpressionAttribute]) -> [ExpressionAttribute] {
        attributes + attributes.map { ExpressionAttribute(name: previousName($0.name), type: $0.type) }
            + attributes.map { ExpressionAttribute(name: changedName($0.name), type: .boolean) }
    }
}
