#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension String {
    /// `format` filled in by the C library's `vsnprintf`: the text Foundation's `String(format:)` gives for the
    /// numeric conversions rawcap uses (`%d`, `%02x`, `%.1f`, `%g`…), which Foundation also hands to the C
    /// library, without loading Foundation. The process never calls `setlocale`, so the decimal point is `.`.
    ///
    /// Only for numbers: `%s` would need C strings, and `%@` does not exist here.
    public init(cFormat format: String, _ arguments: any CVarArg...) {
        self = cFormatted(format, arguments)
    }
}

private func cFormatted(_ format: String, _ arguments: [any CVarArg]) -> String {
    // A va_list is spent once read: the length and the text each get their own.
    let length = Int(withVaList(arguments) { vsnprintf(nil, 0, format, $0) })
    guard length > 0 else { return "" }
    return String(unsafeUninitializedCapacity: length + 1) { buffer in
        let written = withVaList(arguments) { list in
            buffer.withMemoryRebound(to: CChar.self) { vsnprintf($0.baseAddress, $0.count, format, list) }
        }
        return min(Int(written), length)
    }
}
