/// The records a pushed-down scan kept in the database (they surely pass every rule), counted
/// as the streaming engine would have counted them (see ``PushdownLowering``).
extension EntityAccumulator {
    /// Adds `counts` (the scan's counts: every record, the passing ones, then ``PushdownLowering/counted``) for the
    /// records that passed in the database: records read, and per rule id the evaluated and
    /// skipped records by the same rules as `ChunkEvaluator.countEvaluated` and the record
    /// and key rules.
    func absorbPassing(_ lowering: PushdownLowering, counts: [Int]) {
        let plan = entity.plan
        let passing = counts[1]
        var next = 2
        recordsRead += passing
        var counted = Set<Int>()
        func add(_ slot: Int, evaluated: Int) {
            guard counted.insert(slot).inserted else { return }
            evaluatedOverride[slot, default: 0] += evaluated
            skippedOverride[slot, default: 0] += passing - evaluated
        }
        for a in lowering.presentAttributes {
            let present = counts[next]
            next += 1
            var typeCounted = false
            for ci in plan.attributes[a].checks {
                let check = plan.checks[ci]
                if case .record = check.test { continue }
                // Every present value of a passing record is valid.
                add(check.slot, evaluated: ChunkEvaluator.evaluatedRecords(check.test, active: passing, present: present, valid: present))
                if case .type = check.test, !typeCounted {
                    typeValid[ci, default: 0] += present
                    typeCounted = true
                }
            }
        }
        var whenCounts = [Int: Int]()
        for ci in lowering.whenChecks {
            whenCounts[ci] = counts[next]
            next += 1
        }
        for (ci, check) in plan.checks.enumerated() {
            guard case .record(let when, _) = check.test else { continue }
            // Record rules count per check, evaluated where `when` holds (or every record).
            let evaluated = when == nil ? passing : whenCounts[ci] ?? 0
            evaluatedOverride[check.slot, default: 0] += evaluated
        }
        for k in lowering.keyRules {
            add(plan.checks[plan.keyRules[k].check].slot, evaluated: counts[next])
            next += 1
        }
    }
}
