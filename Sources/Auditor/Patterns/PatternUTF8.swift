/// Strict UTF-8 decoding for the matchers' inner loops.
///
/// The matchers handle ASCII bytes themselves and call ``decodeMultiByte(_:at:end:)`` for
/// the rest. Anything that is not well-formed UTF-8 (a stray continuation byte, an overlong
/// form, a surrogate, a value above U+10FFFF, a truncated sequence) decodes to
/// ``invalid``, and the matchers then report no match.
enum PatternUTF8 {
    /// Returned for ill-formed input; never a scalar value.
    static let invalid: UInt32 = .max

    /// Decodes the multi-byte sequence whose lead byte (≥ 0x80) is at `base[index]`.
    /// - Parameters:
    ///   - base: the text.
    ///   - index: the lead byte's index; advanced past the sequence on success.
    ///   - end: the text's length.
    /// - Returns: the scalar value, or ``invalid``.
    @inline(__always)
    static func decodeMultiByte(_ base: UnsafePointer<UInt8>, at index: inout Int, end: Int) -> UInt32 {
        let lead = UInt32(base[index])
        if lead < 0xC2 { return invalid }  // continuation byte, or overlong 2-byte lead
        if lead < 0xE0 {
            guard index + 1 < end else { return invalid }
            let b1 = UInt32(base[index + 1])
            guard b1 & 0xC0 == 0x80 else { return invalid }
            index += 2
            return (lead & 0x1F) << 6 | (b1 & 0x3F)
        }
        if lead < 0xF0 {
            guard index + 2 < end else { return invalid }
            let b1 = UInt32(base[index + 1])
            let b2 = UInt32(base[index + 2])
            guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80 else { return invalid }
            let scalar = (lead & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F)
            // Overlong forms and UTF-16 surrogates are ill-formed.
            guard scalar >= 0x800, scalar & 0xF800 != 0xD800 else { return invalid }
            index += 3
            return scalar
        }
        if lead < 0xF5 {
            guard index + 3 < end else { return invalid }
            let b1 = UInt32(base[index + 1])
            let b2 = UInt32(base[index + 2])
            let b3 = UInt32(base[index + 3])
            guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80, b3 & 0xC0 == 0x80 else { return invalid }
            let scalar = (lead & 0x07) << 18 | (b1 & 0x3F) << 12 | (b2 & 0x3F) << 6 | (b3 & 0x3F)
            guard scalar >= 0x1_0000, scalar <= 0x10_FFFF else { return invalid }
            index += 4
            return scalar
        }
        return invalid
    }
}
