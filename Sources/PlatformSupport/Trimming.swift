extension StringProtocol {
    /// Without leading and trailing white space and line breaks: Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, scalar by scalar as Foundation does.
    public func trimmingWhitespaceAndNewlines() -> String { trimmingScalars(where: Self.isWhitespaceOrNewline) }

    /// Without leading and trailing spaces and tabs: Foundation's `trimmingCharacters(in: .whitespaces)`.
    public func trimmingWhitespace() -> String { trimmingScalars(where: Self.isWhitespace) }

    private func trimmingScalars(where predicate: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !predicate($0) }),
            let last = scalars.lastIndex(where: { !predicate($0) })
        else { return "" }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }

    /// `CharacterSet.whitespaces` as Foundation on Linux has it: tab, and the space separators (Zs) with U+200B.
    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// `CharacterSet.whitespacesAndNewlines`: ``isWhitespace(_:)``, U+000A–U+000D, NEL, and the line and paragraph
    /// separators.
    private static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: isWhitespace(scalar)
        }
    }
}
