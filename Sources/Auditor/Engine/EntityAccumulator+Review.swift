/// Reviewers (``ViolationReviewer``): what they decided about one record's violations.
struct RowReview {
    /// Rewritten messages, by check.
    var messages: [Int32: String] = [:]
    /// Suppressed (or merged away) violations, by check: the reviewer's id.
    var suppressed: [Int32: String] = [:]
    /// Violations the reviewers added: the reviewer's index and the violation.
    var added: [(reviewer: Int, violation: Violation)] = []
}

extension EntityAccumulator {
    /// Runs the entity's reviewers on the violations of one record (`hits`, all of one row,
    /// sorted by check): one violation per rule, as the findings list them.
    /// - Returns: nil when no reviewer applies to the record.
    func review(_ ev: ChunkEvaluation, row: Int, hits: ArraySlice<Hit>, firstSeen: [Int64: Int64]) -> RowReview? {
        let reviewers = entity.hooks.reviewers
        let event: RecordEvents? = ev.changes.map { RecordEvents(class: $0.classes[row]) } ?? .insert
        let applicable = reviewers.indices.filter { i in
            guard let on = reviewers[i].on else { return event != .delete }
            return event.map { on.contains($0) } ?? false
        }
        guard !applicable.isEmpty else { return nil }
        var checks = [Int32]()
        var slots = [Int]()
        var found = [ViolationReview.Found]()
        for h in hits {
            let slot = h.check < 0 ? Int(-1 - h.check) : entity.plan.checks[Int(h.check)].slot
            if slots.contains(slot) { continue }
            slots.append(slot)
            let key = Int64(row) << 32 | Int64(h.check)
            let f = FindingBuilder.finding(entity, ev.chunk, row, h, first: firstSeen[key], hookMessage: ev.hookMessages[key],
                                           violations: ev.violations[key], old: ev.oldValues[key])
            checks.append(h.check)
            found.append(.init(ruleID: f.ruleID, code: f.code, attribute: f.attribute, message: f.message))
        }
        var review = ViolationReview(found)
        let view = RecordView(chunk: ev.chunk, row: row, layout: entity.layout, typed: [:], event: event)
        for i in applicable { reviewers[i].review(view, &review) }
        var out = RowReview()
        for (k, check) in checks.enumerated() {
            if let who = review.suppressedBy[k] {
                out.suppressed[check] = who
            } else if review.violations[k].message != found[k].message {
                out.messages[check] = review.violations[k].message
            }
        }
        out.added = review.added.compactMap { a in reviewers.firstIndex { $0.id == a.reviewer }.map { ($0, a.violation) } }
        return out
    }

    /// The check of reviewer `i` (its rule holds the violations it adds).
    func reviewerCheck(_ i: Int) -> Int {
        entity.hookCheckBase + entity.hooks.attributeValidators.count + entity.hooks.recordValidators.count + i
    }
}
