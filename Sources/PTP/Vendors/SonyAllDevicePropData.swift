import WireFormat

/// The data phase of Sony GetAllDevicePropData (0x9209): every property's description at once. Sony bodies report
/// changes through it (poll it after PropertyChanged 0xC203, or while waiting for a shot).
///
/// Layout (libgphoto2 `ptp.c` `ptp_sony_getalldevicepropdesc`: "nr of entries 32bit, 0 32bit", then
/// `ptp_unpack_Sony_DPD` until the data ends):
///
/// | field | type |
/// |---|---|
/// | count | UINT64 |
/// | descriptions × count | ``SonyDevicePropDesc`` |
///
/// The count is checked against the bytes present (a description takes at least 9) and against
/// ``WireFormat/WireLimits/maxPTPArrayCount`` before anything is allocated.
public struct SonyAllDevicePropData: PTPDataset, Hashable {
    /// The smallest description: code, type, GetSet, IsEnabled, two 1-byte values, FormFlag.
    static let minimumDescriptionByteCount = 9

    /// The descriptions in camera order.
    public var descriptions: [SonyDevicePropDesc]

    /// Wraps descriptions.
    public init(_ descriptions: [SonyDevicePropDesc]) { self.descriptions = descriptions }

    /// The description of `property`, if the camera sent one.
    public subscript(property: DevicePropertyCode) -> SonyDevicePropDesc? {
        descriptions.last { $0.propertyCode == property }
    }

    /// Reads the count and the descriptions.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        let countOffset = reader.offset
        let count64 = try reader.read(UInt64.self)
        guard count64 <= UInt64(WireLimits.maxPTPArrayCount) else {
            throw WireError(.limitExceeded, at: countOffset, "\(count64) Sony property descriptions")
        }
        let count = Int(count64)
        guard count <= reader.remainingCount / Self.minimumDescriptionByteCount else {
            throw WireError(
                .truncated, at: countOffset,
                "\(count) Sony property descriptions in \(reader.remainingCount) bytes")
        }
        var descriptions: [SonyDevicePropDesc] = []
        descriptions.reserveCapacity(count)
        for _ in 0..<count { descriptions.append(try SonyDevicePropDesc(from: &reader, quirks: quirks)) }
        self.descriptions = descriptions
    }

    /// Writes the count and the descriptions.
    public func encode(into writer: inout WireWriter) {
        writer.write(UInt64(descriptions.count))
        for description in descriptions { description.encode(into: &writer) }
    }
}
