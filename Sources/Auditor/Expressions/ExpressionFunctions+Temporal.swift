/// Date and date-time functions.
extension ExpressionFunctions {
    static let temporal: [ExpressionFunction] = [
        .init("today", 0 ... 0) { c throws(Failure) in
            TypedNode(ConstantNode(value: DateColumn(values: [Int32(truncatingIfNeeded: TemporalMath.floorDiv(c.now, 86400))])))
        },
        .init("now", 0 ... 0) { c throws(Failure) in
            TypedNode(ConstantNode(value: DatetimeColumn(values: [c.now])))
        },
        .init("date", 1 ... 1) { c throws(Failure) in
            switch c.type(0) {
            case .date, .null: return .date(try c.date(0))
            case .datetime:
                return try TypedNode(DateConversionNode(source: .datetime(c.argument(0, DatetimeColumn.self))))
            case .string:
                try validateLiteral(c, parses: { ByteParsers.date($0) != nil }, as: "date (YYYY-MM-DD)")
                return TypedNode(DateConversionNode(source: .string(try c.string(0))))
            default:
                throw Failure(offset: c.syntax[0].start, message: "argument 1 of 'date' must be a date, a datetime or a string, got \(c.type(0).phrase)")
            }
        },
        .init("datetime", 1 ... 1) { c throws(Failure) in
            switch c.type(0) {
            case .datetime, .null: return .datetime(try c.argument(0, DatetimeColumn.self))
            case .date: return TypedNode(DatetimeConversionNode(source: .date(try c.date(0))))
            case .string:
                try validateLiteral(c, parses: { ByteParsers.datetime($0) != nil }, as: "datetime (YYYY-MM-DDTHH:MM:SSZ)")
                return TypedNode(DatetimeConversionNode(source: .string(try c.string(0))))
            default:
                throw Failure(offset: c.syntax[0].start, message: "argument 1 of 'datetime' must be a datetime, a date or a string, got \(c.type(0).phrase)")
            }
        },
        .init("year", 1 ... 1) { c throws(Failure) in TypedNode(DatePartNode(part: .year, operand: try c.dateOrDatetime(0))) },
        .init("month", 1 ... 1) { c throws(Failure) in TypedNode(DatePartNode(part: .month, operand: try c.dateOrDatetime(0))) },
        .init("day", 1 ... 1) { c throws(Failure) in TypedNode(DatePartNode(part: .day, operand: try c.dateOrDatetime(0))) },
        .init("dayOfWeek", 1 ... 1) { c throws(Failure) in TypedNode(DatePartNode(part: .dayOfWeek, operand: try c.dateOrDatetime(0))) },
        .init("hour", 1 ... 1) { c throws(Failure) in TypedNode(TimePartNode(part: .hour, operand: try c.argument(0, DatetimeColumn.self))) },
        .init("minute", 1 ... 1) { c throws(Failure) in TypedNode(TimePartNode(part: .minute, operand: try c.argument(0, DatetimeColumn.self))) },
        .init("second", 1 ... 1) { c throws(Failure) in TypedNode(TimePartNode(part: .second, operand: try c.argument(0, DatetimeColumn.self))) },
        .init("yearsBetween", 2 ... 2) { c throws(Failure) in
            TypedNode(DateDifferenceNode(unit: .years, from: try c.date(0), to: try c.date(1)))
        },
        .init("daysBetween", 2 ... 2) { c throws(Failure) in
            TypedNode(DateDifferenceNode(unit: .days, from: try c.date(0), to: try c.date(1)))
        },
        .init("addDays", 2 ... 2) { c throws(Failure) in TypedNode(DateShiftNode(unit: .days, date: try c.date(0), amount: try c.number(1))) },
        .init("addMonths", 2 ... 2) { c throws(Failure) in TypedNode(DateShiftNode(unit: .months, date: try c.date(0), amount: try c.number(1))) },
        .init("addYears", 2 ... 2) { c throws(Failure) in TypedNode(DateShiftNode(unit: .years, date: try c.date(0), amount: try c.number(1))) },
    ]

    /// A constant string argument must parse: `date("2021-02-29")` is a mistake in the rules
    /// file, not a null.
    private static func validateLiteral(_ c: FunctionCall, parses: (UnsafeBufferPointer<UInt8>) -> Bool,
                                        as what: String) throws(Failure) {
        guard c.arguments[0].isConstant, let node = c.arguments[0].node.node(StringColumn.self),
              let text = node.constantValue().text(0) else { return }
        var bytes = Array(text.utf8)
        let ok = bytes.withUnsafeMutableBufferPointer { parses(UnsafeBufferPointer($0)) }
        if !ok { throw Failure(offset: c.syntax[0].start, message: "'\(text)' is not a valid \(what)") }
    }
}
