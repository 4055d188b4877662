import Auditor

/// The reporters that ship with auditor.
public enum StandardReporters {}
