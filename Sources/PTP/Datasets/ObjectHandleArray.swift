import WireFormat

/// An object handle: the device's 32-bit name for one object (ISO 15740 §5.2.2).
///
/// In an ObjectInfo's ParentObject, 0 means the root; as a GetObjectHandles parent filter, 0xFFFFFFFF means
/// "in the root" (see ``ObjectHandleArray/ParentFilter``).
public struct ObjectHandle: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The 32-bit handle.
    public let rawValue: UInt32

    /// Wraps a handle.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `0x00000001`.
    public var description: String {
        let digits = String(rawValue, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}

/// The ObjectHandle array: the data phase of GetObjectHandles (0x1007), a `UInt32` count then the handles
/// (ISO 15740 §10.5.7). The count is bounded by ``WireFormat/WireLimits/maxPTPArrayCount``.
public struct ObjectHandleArray: PTPDataset, Hashable {
    /// GetObjectHandles' third parameter: which folder's objects to list.
    public enum ParentFilter: Hashable, Sendable {
        /// Objects anywhere (parameter 0).
        case any
        /// Objects in the root folder (parameter 0xFFFFFFFF).
        case root
        /// Objects in one folder.
        case folder(ObjectHandle)

        /// The parameter value.
        public var parameter: UInt32 {
            switch self {
            case .any: 0
            case .root: 0xFFFF_FFFF
            case .folder(let handle): handle.rawValue
            }
        }
    }

    /// The handles, in the device's order.
    public var handles: [ObjectHandle]

    /// Wraps a list of handles.
    public init(_ handles: [ObjectHandle]) { self.handles = handles }

    /// Reads the array.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        handles = try reader.readArray(of: UInt32.self).map(ObjectHandle.init(rawValue:))
    }

    /// Writes the array.
    public func encode(into writer: inout WireWriter) { writer.writeArray(handles.map(\.rawValue)) }
}
