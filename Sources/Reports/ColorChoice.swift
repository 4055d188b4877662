#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether to colour a stream, decided exactly as CONVENTIONS rule 5 says.
///
/// Precedence, first match wins:
/// 1. `--color=always` ⇒ on, `--color=never` ⇒ off (`--color=auto` or no flag: go on);
/// 2. `NO_COLOR` set and non-empty ⇒ off;
/// 3. `FORCE_COLOR` or `CLICOLOR_FORCE` set and non-empty ⇒ on (any non-empty value,
///    `0` included: the rule says non-empty, unlike Node's reading of `FORCE_COLOR=0`);
/// 4. `TERM=dumb` ⇒ off;
/// 5. otherwise on exactly when the stream being coloured is a terminal.
///
/// ``resolve(flag:environment:isTTY:)`` is a pure function so every step is testable;
/// ``forStream(_:flag:environment:)`` adds the `isatty` call for the CLI.
package struct ColorChoice: Sendable, Equatable {
    /// The `--color` flag's values.
    public enum Flag: String, Sendable, CaseIterable {
        case always
        case never
        case auto
    }

    /// Which precedence step decided.
    public enum Reason: Sendable, Equatable {
        /// `--color=always` or `--color=never`.
        case flag(Flag)
        /// `NO_COLOR` is set and non-empty.
        case noColor
        /// `FORCE_COLOR` or `CLICOLOR_FORCE` (named) is set and non-empty.
        case forced(variable: String)
        /// `TERM=dumb`.
        case dumbTerminal
        /// The stream is (or is not) a terminal.
        case terminal(isTTY: Bool)
    }

    /// Whether to emit ANSI colour.
    public var enabled: Bool
    /// The step that decided, for `--verbose` diagnostics ("colour off: NO_COLOR is set").
    public var reason: Reason

    /// Creates a decision; normally obtained from ``resolve(flag:environment:isTTY:)``.
    public init(enabled: Bool, reason: Reason) {
        self.enabled = enabled
        self.reason = reason
    }

    /// Decides colour from the flag, the environment and whether the stream is a terminal.
    ///
    /// - Parameters:
    ///   - flag: The `--color` value, `nil` when not given (same as `.auto`).
    ///   - environment: The process environment (`ProcessInfo.processInfo.environment`).
    ///   - isTTY: Whether the stream that will be coloured is a terminal.
    /// - Returns: The decision and the step that made it.
    public static func resolve(flag: Flag?, environment: [String: String], isTTY: Bool) -> ColorChoice {
        switch flag {
        case .always?: return ColorChoice(enabled: true, reason: .flag(.always))
        case .never?: return ColorChoice(enabled: false, reason: .flag(.never))
        case .auto?, nil: break
        }
        if isSet("NO_COLOR", in: environment) {
            return ColorChoice(enabled: false, reason: .noColor)
        }
        for variable in ["FORCE_COLOR", "CLICOLOR_FORCE"] where isSet(variable, in: environment) {
            return ColorChoice(enabled: true, reason: .forced(variable: variable))
        }
        if environment["TERM"] == "dumb" {
            return ColorChoice(enabled: false, reason: .dumbTerminal)
        }
        return ColorChoice(enabled: isTTY, reason: .terminal(isTTY: isTTY))
    }

    /// Decides colour for a file descriptor of this process (`STDOUT_FILENO` for reports).
    ///
    /// - Parameters:
    ///   - fileDescriptor: The stream being coloured; `isatty` is asked about it.
    ///   - flag: The `--color` value, `nil` when not given.
    ///   - environment: The process environment.
    /// - Returns: The decision and the step that made it.
    public static func forStream(_ fileDescriptor: Int32, flag: Flag?,
                                 environment: [String: String]) -> ColorChoice {
        resolve(flag: flag, environment: environment, isTTY: isatty(fileDescriptor) == 1)
    }

    private static func isSet(_ name: String, in environment: [String: String]) -> Bool {
        guard let value = environment[name] else { return false }
        return !value.isEmpty
    }
}

extension ColorChoice.Reason: CustomStringConvertible {
    /// Why colour is on or off, in words: `NO_COLOR is set`, `stdout is not a terminal`.
    public var description: String {
        switch self {
        case .flag(let flag): return "--color=\(flag.rawValue)"
        case .noColor: return "NO_COLOR is set"
        case .forced(let variable): return "\(variable) is set"
        case .dumbTerminal: return "TERM=dumb"
        case .terminal(let isTTY): return isTTY ? "the stream is a terminal" : "the stream is not a terminal"
        }
    }
}
