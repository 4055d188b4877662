/// The words of the people-facing reports (text and Markdown) around the messages: the
/// verdict, counts, section titles and the result line, keyed as a message catalog's
/// `report:` section names them (STYLE.md "Wording lives in one place").
///
/// English is built in here; `rules/messages/en.yml` holds exactly these templates (a test
/// keeps them identical) and every other shipped catalog translates each of them. Templates use
/// the same ICU subset as messages (`{count, plural, one {# record} other {# records}}`).
/// Numbers reach a template already written with the catalog's `number.group` and
/// `number.decimal` marks (`2,000` in English, `2 000` in French).
///
/// Machine formats (JSON, SARIF, JUnit, GitHub annotations) and the severity words of
/// `path:line: error: rule: message` lines are never translated.
package enum ReportPhrases {
    /// Every phrase key with its English template.
    public static let templates: [String: String] = [
        // numbers: marks, not templates with placeholders
        "number.group": ",",
        "number.decimal": ".",
        "number.percent": "{rate}%",
        "number.bytes": "{count, plural, one {# byte} other {# bytes}}",
        "punctuation.colon": ": ",
        "punctuation.semicolon": "; ",
        // verdicts and the severities that fail the run
        "verdict.passed": "passed",
        "verdict.failed": "FAILED",
        "verdict.incomplete": "INCOMPLETE",
        "verdict.passedCaps": "PASSED",
        "severities.error": "at severity error",
        "severities.warning": "at severity warning or error",
        "severities.never": "(none fails with --fail-on never)",
        "failing.never": "none fail with --fail-on never",
        "failing.count": "{count, plural, =0 {none} other {#}}{new, select, yes { with new findings} other {}} {severities}",
        // lists: `a, b and c`; `a, b, c and 9 more`
        "list.and": "{items} and {last}",
        "list.more": "{items} and {more} more",
        // the head line
        "head.incompleteInputs": "{incomplete} of {inputs, plural, one {# input} other {# inputs}} not read completely",
        "head.rules": "{rules, plural, one {# rule} other {# rules}}{unevaluated, plural, =0 {} other { (# not evaluated)}}",
        "head.records": "{records, plural, one {# record} other {# records}}{partial, select, yes { read} other {}}",
        "head.noFindings": "no findings",
        "head.violated": "{violated} of {rules, plural, one {# rule} other {# rules}} violated ({failing}"
            + "{tolerated, plural, =0 {)} other {, # tolerated)}}",
        "head.withFindings": "{withFindings} of {records, plural, one {# record} other {# records}} with findings",
        "head.unevaluated": "{count, plural, one {# rule} other {# rules}} not evaluated",
        // an entity's (or a source's) title line
        "entity.source": "source {source}",
        "entity.records": "{count, plural, one {# record} other {# records}}",
        "entity.withFindings": "{count} with findings",
        "entity.violations": "{count, plural, one {# violation} other {# violations}}",
        "entity.noRules": "no rules",
        "entity.passed": "{count, plural, one {# rule} other {# rules}} passed",
        "entity.unevaluated": "{count, plural, one {# rule} other {# rules}} not evaluated",
        "entity.passedUnevaluated": "{passed, plural, one {# rule} other {# rules}} passed, {unevaluated} not evaluated",
        // a rule's row, its notes, samples and the passing summary
        "status.passed": "passed",
        "status.tolerated": "tolerated",
        "status.notEvaluated": "not evaluated",
        "rule.count": "{violations} of {evaluated, plural, one {# record} other {# records}}",
        "rule.withinThreshold": "{severity}, within threshold: {threshold}",
        "rule.thresholdExceeded": "threshold exceeded: {threshold}",
        "rule.skipped": "{count, plural, one {# record} other {# records}} not evaluated",
        "rule.suppressed": "{count} suppressed: one root cause",
        "rule.suppressedByHook": "{count} suppressed by hook {hook}",
        "rule.definedAt": "defined at {location}",
        "rule.hint": "hint: {hint}",
        "rules.list": "{count, plural, one {# rule} other {# rules}}: {list}",
        "rules.verbose": "{list} (--verbose lists them)",
        "samples.suppressed": "... {count} more findings of this rule suppressed: the finding above is their root cause",
        "samples.hidden": "... {hidden} more ({shown} of {violations} shown; raise --max-samples to see more)",
        "finding.value": "value '{value}'",
        "finding.new": "new",
        // records with findings
        "records.title": "Records with findings (the first {max} of each entity, in input order, with all their findings):",
        "records.more": "... {count} more {entity} {count, plural, one {record} other {records}} with findings",
        "records.head": "{entity}, {count, plural, one {# finding} other {# findings}}, code {code}",
        // inputs and the run
        "inputs.title": "Inputs:",
        "inputs.none": "Inputs: none",
        "inputs.source": "source {source}",
        "inputs.sizeUnknown": "size unknown",
        "inputs.records": "{count, plural, one {# record} other {# records}}",
        "inputs.complete": "read completely",
        "inputs.completePrevious": "read completely (previous snapshot)",
        "inputs.ranIn": "rules run in {engine}: only the records that may fail were read",
        "inputs.pushdownRefused": "read in full, not pushed down: {reason}",
        "inputs.ruleInProcess": "{rule} checked in the process, on the records {engine} sent: {reason}",
        "inputs.keysSpilled": "unique keys outgrew --memory-limit at {size}: spilled to disk, the input read twice more",
        "inputs.referencedKeysSpilled": "the keys other sources reference outgrew --memory-limit at {size}: spilled to disk, each referencing input read once more",
        "inputs.noReason": "the reader gave no reason",
        "inputs.stopped": "reading stopped after {count, plural, one {# record} other {# records}}, findings cover only those",
        "run.line": "Run: started {started}, took {took}, at most {samples, plural, one {# sample} other {# samples}} "
            + "per rule, --fail-on {failOn}",
        // the result line: `Result: FAILED (exit 1): 16 rules violated at severity error (--fail-on error)`
        "result.line": "Result: {verdict}{detail}",
        "result.exit": " (exit {status})",
        "result.failed": "{count, plural, one {# rule} other {# rules}} {new, select, yes {with new findings } other {}}"
            + "violated {severities} {failOn}",
        "result.existingOnly": "{count, plural, one {# more rule} other {# more rules}} violated {severities} "
            + "{count, plural, one {has} other {have}} only findings of the baseline",
        "result.noNewFindings": "no new findings {severities} {failOn}",
        "result.existingOnlyPassed": "{count, plural, one {# rule} other {# rules}} violated {severities} "
            + "{count, plural, one {has} other {have}} only findings of the baseline",
        "result.noRuleViolated": "no rule violated",
        "result.tolerated": "{count, plural, one {# rule tolerated within its threshold} "
            + "other {# rules tolerated within their thresholds}}",
        "result.violatedNotFailing": "{count, plural, one {# rule} other {# rules}} violated, {failing}",
        "result.incomplete": "{paths} not read completely, so this audit cannot pass",
        "result.noneInRead": "no rule violated in the records read",
        "result.violatedInRead": "{count, plural, one {# rule} other {# rules}} violated in the records read, {failing}",
        "result.allUnevaluated": "{count, plural, one {its one rule was not evaluated} other {none of the # rules was evaluated}}",
        "result.noRecords": "{path} has no records",
        // the Markdown report's reasons (beside result.failed, result.tolerated, …)
        "reason.incomplete": "{paths} not read completely, so the audit cannot pass",
        "reason.violatedNever": "{count, plural, one {# rule} other {# rules}} violated, none fails with --fail-on never",
        "reason.belowFailOn": "{severities} {count, plural, one {rule} other {rules}} violated, below --fail-on {failOn}",
        // a baseline (--baseline, --fail-on-new) and a history's trends
        "baseline.new": "{count} new",
        "baseline.counts": "{new}, {existing} existing, {resolved} resolved",
        "baseline.totals": "{counts} findings",
        "baseline.header": "Baseline {source}: {totals}",
        "baseline.gate": "--fail-on-new: only rules with new findings fail the run",
        "baseline.missing": "{count, plural, one {# rule of the baseline is} other {# rules of the baseline are}} not in this run: {rules} ({count, plural, one {its} other {their}} findings are not counted as resolved)",
        "baseline.incomplete": "an input was not read completely: findings of the records not read count as resolved",
        "baseline.resolved": "resolved since the baseline: {list}",
        "baseline.findings": "{count, plural, one {# finding} other {# findings}}",
        "rule.baseline": "baseline: {counts}",
        "rule.existingOnly": "only findings of the baseline, so it does not fail the run (--fail-on-new)",
        "rule.trend": "trend: {trend}",
        "history.run": "History run {run}",
        "history.name": "History",
        "history.noJump": "{name}: no rule jumped above its recent median",
        "history.jumped": "{name}: {count, plural, one {# rule} other {# rules}} {jumped} well above {count, plural, one {its} other {their}} recent median: {list}",
        "history.jumpedWord": "jumped",
        "history.JUMPED": "JUMPED",
        "history.jump": "{count, plural, one {# violation} other {# violations}}, recent median {median}",
        "history.trend": "{spark}{range} over {runs, plural, one {# run} other {# runs}}{median, select, none {} other {, recent median {median}}}",
        "md.history.jumped": "{name}: **{count, plural, one {# rule jumped} other {# rules jumped}}** well above {count, plural, one {its} other {their}} recent median: {list}",
        // why a rule evaluated no record
        "unevaluated.emptyInput": "{path} has no records, so the {count, plural, one {# rule} other {# rules}} of {entity} {count, plural, one {was} other {were}} not evaluated; to make an empty input fail, give {entity} a rowCount: {{ min: 1 }} rule",
        "unevaluated.sourceNotRead": "source {source} was not read",
        "unevaluated.unreadable": "no record of {path} could be read{exit}",
        "unevaluated.noInputs": "{path} was read, but every record lacked an input of the rule or had an invalid one",
        "unevaluated.noneChecked": "{path} was read, but no record was checked: its condition matched none, its records were excluded by structural findings, or the data it compares with was unavailable",
        // an entity's changes since its previous snapshot (lifecycle rules)
        "lifecycle.noPrevious": "no previous snapshot: every record counts as inserted ({inserted})",
        "lifecycle.unreadable": "changes since {previous}: unknown, the previous snapshot could not be read to its end; lifecycle rules were not evaluated",
        "lifecycle.changes": "changes since {previous}: {inserted} inserted, {updated} updated{attributes}, {deleted} deleted, {unchanged} unchanged",
        // the Markdown report's titles, table columns (keep the ` | ` between them) and notes
        "md.columns.totals": "Records | With findings | Rules | Failing | Tolerated | Violations",
        "md.violatedTitle": "Rules with violations",
        "md.columns.rules": "Status | Rule | Severity | Violations",
        "md.columns.baseline": "New | Existing | Resolved",
        "md.columns.trend": "Trend",
        "md.columns.rate": "Rate | Threshold | Requirement",
        "md.status.existingOnly": "existing only",
        "md.status.failed": "failed",
        "md.status.violated": "violated",
        "md.status.incomplete": "incomplete",
        "md.count": "{violations} of {evaluated}",
        "md.none": "none",
        "md.moreRules": "… and {count, plural, one {# more violated rule} other {# more violated rules}} (the size budget is "
            + "{budget}); the JSON or HTML report lists them all.",
        "md.cut": "… and {count, plural, one {# more line} other {# more lines}} cut to stay under {limit}.",
        "md.unevaluatedTitle": "Rules not evaluated",
        "md.unevaluatedIntro": "No record was checked: these rules did not pass.",
        "md.columns.unevaluated": "Rule | Why",
        "md.inputsTitle": "Inputs",
        "md.columns.inputs": "Path | Format | Records | Status",
        "md.footer": "auditor {version}, rules {rules}, started {started}, took {took}.",
        "md.samplesTitle": "Samples",
        "md.samplesLeft": "Some sample tables were left out to keep this report under {budget}: … and "
            + "{count, plural, one {# more rule} other {# more rules}} with samples; the HTML, JSON or failures-out reports have them all.",
        "md.shown": "{count} shown",
        "md.columns.samples": "Location | Key | Value | Message",
        "md.columns.samplesBaseline": "Baseline",
        "md.missing": "missing",
        "md.existing": "existing",
        "md.moreSamples": "… and {count, plural, one {# more sample} other {# more samples}} of this rule in the JSON or HTML report.",
        // the HTML report's frame (beside the text and Markdown phrases it shares)
        "html.title": "{verdict}: {rules} (auditor report)",
        "html.exit": "exit {status}",
        "html.meta": "auditor {version} · rules {rules} · started {started} · took {took} · --fail-on {failOn}",
        "html.meta.baseline": "baseline {source}",
        "html.meta.history": "history run {run}",
        "html.summaryTitle": "Summary",
        "html.card.records": "Records",
        "html.card.withFindings": "With findings",
        "html.card.rules": "Rules",
        "html.card.failing": "Failing rules",
        "html.card.tolerated": "Tolerated",
        "html.card.notEvaluated": "Not evaluated",
        "html.card.violations": "Violations",
        "html.card.new": "New findings",
        "html.card.existing": "Existing",
        "html.card.resolved": "Resolved",
        "html.card.jumped": "Jumped rules",
        "html.card.duration": "Duration",
        "html.columns.inputs": "Path | Source | Format | Size | Records | Time | Status",
        "html.sizeUnknown": "unknown",
        "html.noInput": "No input.",
        "html.filter.placeholder": "Filter by rule, value, key, message, location…",
        "html.filter.label": "Filter rules, samples and records",
        "html.failingOnly": "failing rules only",
        "html.expand": "Expand all",
        "html.collapse": "Collapse all",
        "html.filter.status": "Showing {rules}, {samples}, {records}",
        "html.filter.count": "{shown} of {total} {noun}",
        "html.pager.status": "Showing {shown} of {total} {noun}",
        "html.pager.matching": "Showing {shown} of {total} matching {noun}",
        "html.pager.more": "Show more",
        "html.noun.sample": "{count, plural, one {sample} other {samples}}",
        "html.noun.record": "{count, plural, one {record} other {records}}",
        "html.noun.rule": "{count, plural, one {rule} other {rules}}",
        "html.lazy": "The first {shown} of {total} {noun} are shown; the other {other} are in the data embedded in this page ({island}): with JavaScript they appear as you scroll.",
        "html.code": "code {code}",
        "html.rulesTitle": "Rules by entity",
        "html.legend.failed": "beyond its threshold at a failing severity",
        "html.legend.violated": "beyond its threshold, below --fail-on {failOn}",
        "html.legend.existing": "at a failing severity, every finding in the baseline (--fail-on-new)",
        "html.legend.tolerated": "within its threshold",
        "html.legend.passed": "no violation",
        "html.legend.notEvaluated": "no record checked: neither passed nor failed",
        "html.lifecycle.samples": "First changed records",
        "html.warning": "Warning: {warning}.",
        "html.noRules": "No rules.",
        "html.columns.rules": "Status | Rule | Severity | Code | Violations",
        "html.columns.rulesEnd": "Evaluated | Rate | Threshold | Requirement | Defined at",
        "html.notEvaluatedBecause": "not evaluated: {reason}",
        "html.note.tolerated": "tolerated: within its threshold ({threshold})",
        "html.note.exceeded": "threshold exceeded ({threshold})",
        "html.note.existingOnly": "only findings of the baseline: it does not fail the run with --fail-on-new",
        "html.more.suppressed": "{count} more findings of this rule suppressed: the finding above is their root cause",
        "html.more.hidden": "{hidden} more not shown ({shown} of {violations} shown; raise --max-samples, or write every failing record with --failures-out)",
        "html.records.title": "Records with findings",
        "html.records.none": "No record has a finding.",
        "html.records.intro": "The first {max} violating records of each entity, in input order, each with all its findings.",
        "html.records.shown": "{shown} of {total, plural, one {# record} other {# records}} with findings shown",
        "html.columns.records": "Location | Key | Findings",
        "html.records.more": "{count} more records with findings not shown.",
        "html.chart.title": "Violations per rule",
        "html.chart.none": "No rule has a violation.",
        "html.chart.svgTitle": "Violations per rule, most first",
        "html.chart.max": "max {max}",
        "html.chart.threshold": "threshold: {threshold}",
        "html.chart.legend.existing": "existing only (--fail-on-new)",
        "html.chart.legend.violated": "violated, below --fail-on",
        "html.chart.legend.threshold": "threshold (maxFailures)",
        "html.chart.more": "{count, plural, one {# more violated rule} other {# more violated rules}} not drawn; the tables below list every rule.",
        "html.baseline.compared": "Compared with the baseline {source}: {totals}.",
        "html.baseline.incomplete": "An input was not read completely: findings of the records not read count as resolved.",
        "html.spark.title": "Violations over the last {runs, plural, one {# run} other {# runs}}, oldest first: {list} (this run)",
        "html.spark.median": "; recent median {median}",
        "html.failures": "Every failing record, with all its findings: {link} ({records}, {findings}, {format}; written by --failures-out with this report).",
        "html.failures.csv": "CSV, one row per finding",
        "html.failures.jsonl": "JSON Lines, one object per record",
        "html.values.title": "Most frequent failing values ({note}):",
        "html.values.exact": "exact counts",
        "html.values.bounds": "counts marked ≈ are bounds: more distinct values failed than the summary tracks",
        "html.values.other": "; {count} other failures have other values",
        "html.values.bound": "≈ {count} ({low} to {count})",
        "html.footer": "Generated by auditor {version} from {rules}, started {started}. The complete report is embedded in this file as JSON (the element {island}, schema version {schema}, without the list of every finding's fingerprint, each finding written once, column by column). Values are shown with control and bidirectional characters made visible as {escape}.",
    ]

    /// The placeholders a phrase may use: those of its English template.
    /// - Parameter key: A key of ``templates``.
    /// - Returns: `nil` for an unknown key.
    public static func placeholders(of key: String) -> Set<String>? {
        guard let english = templates[key], let template = try? MessageTemplate(english) else { return nil }
        return Set(template.placeholders)
    }

    /// Every key a catalog's `report:` section accepts, sorted.
    public static var keys: [String] { templates.keys.sorted() }
}

/// The report phrases of one catalog, parsed once: the catalog's own where it has them, else
/// the built-in English of `ReportPhrases`.
public struct ReportWording: Sendable {
    /// The catalog's locale (`en`, `fr`), whose plural rules choose branches.
    public let locale: String
    private let templates: [String: MessageTemplate]
    private let group: String
    private let decimal: String

    /// The built-in English wording.
    public static let english = ReportWording(MessageCatalog.english)

    /// Parses every phrase of `catalog` (a phrase that does not parse falls back to English;
    /// ``MessageCatalog/load(path:structuralRules:)`` has already rejected it).
    public init(_ catalog: MessageCatalog) {
        locale = catalog.locale
        var parsed: [String: MessageTemplate] = [:]
        for (key, english) in ReportPhrases.templates {
            if let own = catalog.report[key], let t = try? MessageTemplate(own, language: catalog.locale) {
                parsed[key] = t
            } else if let t = try? MessageTemplate(english, language: catalog.locale) {
                parsed[key] = t
            }
        }
        templates = parsed
        group = catalog.report["number.group"] ?? ","
        decimal = catalog.report["number.decimal"] ?? "."
    }

    /// The phrase `key` with `parameters` substituted (numbers already written with ``number(_:)``).
    public func callAsFunction(_ key: String, _ parameters: [String: String] = [:]) -> String {
        guard let template = templates[key] else { return key }
        return template.render { parameters[$0] }
    }

    /// A number written in English style (`2,000`, `1.20%`, `60.8 KiB`) with this wording's
    /// group and decimal marks.
    public func number(_ english: String) -> String {
        if group == "," && decimal == "." { return english }
        var out = ""
        for c in english {
            switch c {
            case ",": out += group
            case ".": out += decimal
            default: out.append(c)
            }
        }
        return out
    }

    /// `a`, `a and b`, `a, b and c`, with this wording's `list.and`.
    public func list(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        if items.count == 1 { return last }
        return self("list.and", ["items": items.dropLast().joined(separator: ", "), "last": last])
    }
}
