import Foundation

// TEMPORARY: replaced by the linear-time engine of the `pattern` branch before landing.
public struct Pattern: @unchecked Sendable {
    public let source: String
    let regex: NSRegularExpression

    public init(_ source: String) throws(PatternError) {
        self.source = source
        do {
            regex = try NSRegularExpression(pattern: "^(?:" + source + ")$")
        } catch {
            throw PatternError(message: "invalid regular expression '\(source)'", offset: 0)
        }
    }

    public func matches(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let s = String(validating: utf8, as: UTF8.self) else { return false }
        return matches(s)
    }

    public func matches(_ string: String) -> Bool {
        regex.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
    }
}

public struct PatternError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var description: String { message }
}
