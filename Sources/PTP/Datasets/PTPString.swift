import WireFormat

/// PTP strings: a one-byte count of UCS-2 code units **including** the terminating NUL, then the units,
/// little-endian; the empty string is the single byte `0x00` (ISO 15740 §5.3.5; libgphoto2 `ptp_unpack_string`).
///
/// Decoding never traps: invalid UTF-16 (a lone surrogate) becomes U+FFFD, surrogate pairs become one character,
/// and the value ends at the first NUL unit. Encoding writes at most ``maxUnits`` units including the NUL, cutting a
/// longer string at a character boundary (a pair is never split).
public enum PTPString {
    /// Most code units a PTP string carries, NUL included (the count is one byte; libgphoto2 `PTP_MAXSTRLEN`).
    public static let maxUnits = WireLimits.maxPTPStringUnits

    /// Reads one PTP string.
    ///
    /// - Throws: ``WireFormat/WireError/Code/truncated`` when the units run past the input, and
    ///   ``WireFormat/WireError/Code/invalidValue`` when the last unit is not NUL (unless `quirks` contains
    ///   ``PTPQuirks/unterminatedStrings``).
    public static func read(from reader: inout WireReader, quirks: PTPQuirks = []) throws(WireError) -> String {
        let countOffset = reader.offset
        let count = Int(try reader.read(UInt8.self))
        if count == 0 { return "" }
        let bytes = try reader.readBytes(count: count * 2)
        var units: [UInt16] = []
        units.reserveCapacity(count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            units.append(UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
            index += 2
        }
        if units.last != 0 && !quirks.contains(.unterminatedStrings) {
            throw WireError(.invalidValue, at: countOffset, "string of \(count) units does not end with NUL")
        }
        return decode(units: units)
    }

    /// Appends `string` as a PTP string.
    public static func write(_ string: String, into writer: inout WireWriter) {
        let units = encodedUnits(string)
        if units.isEmpty {
            writer.write(UInt8(0))
            return
        }
        writer.write(UInt8(units.count + 1))
        for unit in units { writer.write(unit) }
        writer.write(UInt16(0))
    }

    /// The UTF-16 units that ``write(_:into:)`` writes before the NUL: at most `maxUnits - 1`, cut at a character
    /// boundary; a NUL inside `string` ends it, as it would on the camera.
    public static func encodedUnits(_ string: String) -> [UInt16] {
        var units: [UInt16] = []
        for scalar in string.unicodeScalars {
            if scalar.value == 0 { break }
            let width = scalar.value > 0xFFFF ? 2 : 1
            if units.count + width > maxUnits - 1 { break }
            units.append(contentsOf: scalar.utf16)
        }
        return units
    }

    /// Whether `string` survives a round trip through a PTP string unchanged.
    public static func fits(_ string: String) -> Bool {
        decode(units: encodedUnits(string)) == string
    }

    /// Decodes UTF-16 units up to the first NUL, replacing invalid sequences with U+FFFD.
    static func decode<Units: Collection>(units: Units) -> String where Units.Element == UInt16 {
        let end = units.firstIndex(of: 0) ?? units.endIndex
        return String(decoding: units[..<end], as: UTF16.self)
    }
}
