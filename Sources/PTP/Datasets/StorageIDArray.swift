import WireFormat

/// A storage ID: the high 16 bits name a physical store, the low 16 bits a logical store on it (ISO 15740 §5.2.1).
public struct StorageID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 32-bit ID.
    public let rawValue: UInt32

    /// Wraps an ID.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// 0xFFFFFFFF: every store, as a GetNumObjects or GetObjectHandles parameter.
    public static let all = StorageID(rawValue: 0xFFFF_FFFF)

    /// The physical store (high 16 bits).
    public var physicalStorage: UInt16 { UInt16(truncatingIfNeeded: rawValue >> 16) }
    /// The logical store (low 16 bits); 0 means the store is absent (an empty card slot).
    public var logicalStorage: UInt16 { UInt16(truncatingIfNeeded: rawValue) }

    /// `0x00010001`.
    public var description: String {
        let digits = String(rawValue, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}

/// The StorageID array: the data phase of GetStorageIDs (0x1004), a `UInt32` count then the IDs (ISO 15740 §10.5.4).
public struct StorageIDArray: PTPDataset, Hashable {
    /// The store IDs, in the device's order.
    public var storageIDs: [StorageID]

    /// Wraps a list of IDs.
    public init(_ storageIDs: [StorageID]) { self.storageIDs = storageIDs }

    /// Reads the array.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        storageIDs = try reader.readArray(of: UInt32.self).map(StorageID.init(rawValue:))
    }

    /// Writes the array.
    public func encode(into writer: inout WireWriter) { writer.writeArray(storageIDs.map(\.rawValue)) }
}
