/// Receives every violating record with all its findings, in input order, while the audit
/// runs (for `--failures-out`): memory stays flat because nothing is kept.
///
/// What an implementation must guarantee: ``receive(_:)`` is called on the thread that runs
/// ``AuditEngine/run(_:)``, one call at a time, so it needs no locking; it must not keep the
/// records unless it means to. An error it throws stops the audit with that error.
public protocol FindingSink: AnyObject, Sendable {
    /// Called once per violating record, in input order.
    func receive(_ record: RecordFindings) throws
    /// Called once after the last entity.
    func finish() throws
    /// Called instead of ``finish()`` when the audit stops with an error: drop what was
    /// received (a file sink removes its temporary file). The default does nothing.
    func discard()
}

extension FindingSink {
    public func discard() {}
}
