import Logging

/// Hex dumps for `.trace` logs of every container and packet (libgphoto2's `GP_LOG_DATA` habit).
enum HexDump {
    /// Bytes shown from a long payload before the dump is cut.
    static let maxShownBytes = 64

    /// `0c 00 00 00 03 00 01 20 01 00 00 00`, cut after ``maxShownBytes`` with the total noted.
    static func render<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits: [Character] = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(min(bytes.count, maxShownBytes) * 3)
        for (index, byte) in bytes.prefix(maxShownBytes).enumerated() {
            if index > 0 { text.append(" ") }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        if bytes.count > maxShownBytes { text += " … (\(bytes.count) bytes)" }
        return text
    }
}

extension Logger {
    /// Logs a hex dump of `bytes` at `.trace`, without rendering anything when trace is off.
    func traceBytes<Bytes: Collection>(_ label: @autoclosure () -> String, _ bytes: Bytes)
    where Bytes.Element == UInt8 {
        guard logLevel <= .trace else { return }
        trace("\(label()): \(HexDump.render(bytes))")
    }
}
