/// Deviations from ISO 15740 that real firmware commits, each accepted only when the caller asks for it.
///
/// Decoders are strict by default: bytes that break the spec throw a ``WireFormat/WireError``. A capture driver that
/// knows its camera picks the quirks once (for example from ``DeviceInfo/model``) and hands them to ``PTPSession``,
/// which passes them to every dataset it decodes. Each quirk names the evidence for it, as libgphoto2's
/// `device-flags.h` does.
public struct PTPQuirks: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The bit set.
    public let rawValue: UInt32

    /// Wraps a bit set.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A DevicePropDesc of an 8-bit type (INT8/UINT8) whose enumeration entries are 16 bits wide.
    ///
    /// Evidence: the Canon EOS 60D describes BatteryLevel (0x5001) as UINT8 with `02 05 00 64 00 4b 00 32 00 19 00
    /// 00 00`: five entries, ten bytes (`Fixtures/ptp-real/canon-eos-60d_devicepropdesc.hex`). With this quirk an
    /// 8-bit enumeration whose remaining bytes are exactly twice its entry count is read as 16-bit entries, each of
    /// which must fit the 8-bit type; an enumeration of the spec's size still decodes normally.
    public static let wideEightBitEnumerations = PTPQuirks(rawValue: 1 << 0)

    /// PTP strings whose last code unit is not the terminating NUL.
    ///
    /// The unit count makes the string's extent unambiguous, so such a string can be read safely; by default it is
    /// rejected because the spec requires the NUL and the value could not be re-encoded byte for byte.
    public static let unterminatedStrings = PTPQuirks(rawValue: 1 << 1)

    /// The quirks' names, for logs.
    public var description: String {
        var names: [String] = []
        if contains(.wideEightBitEnumerations) { names.append("wideEightBitEnumerations") }
        if contains(.unterminatedStrings) { names.append("unterminatedStrings") }
        let unknown = rawValue & ~(Self.wideEightBitEnumerations.rawValue | Self.unterminatedStrings.rawValue)
        if unknown != 0 { names.append(hex(unknown)) }
        return "[" + names.joined(separator: ", ") + "]"
    }
}
