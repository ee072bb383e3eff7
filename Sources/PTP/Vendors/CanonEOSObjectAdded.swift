import WireFormat

/// An ObjectAddedEx (0xC181) or ObjectAddedEx64 (0xC1A7) record of Canon EOS GetEvent: an object the camera wrote
/// to a card.
///
/// Payload layout, offsets from the record start (libgphoto2 `ptp-pack.c` `ptp_unpack_CANON_changes`, `PTP_ece_OA_*`
/// and `PTP_ece2_OA_*`):
///
/// | field | ObjectAddedEx | ObjectAddedEx64 | type |
/// |---|---|---|---|
/// | ObjectHandle | 0x08 | 0x08 | UINT32 |
/// | StorageID | 0x0C | 0x0C | UINT32 |
/// | ObjectFormat | 0x10 | 0x10 | UINT16 |
/// | (not interpreted) | 0x12–0x1B | 0x12–0x1B | 10 bytes |
/// | ObjectCompressedSize | 0x1C | 0x1C | UINT32 |
/// | ParentObject | 0x20 | 0x24 | UINT32 |
/// | (not interpreted) | 0x24–0x27 | 0x20–0x23 | 4 bytes |
/// | second handle | — | 0x28 | UINT32 |
/// | Filename | 0x28 | 0x2C | NUL-terminated ASCII |
///
/// ObjectAddedEx carries the parent at 0x20 and 4 uninterpreted bytes at 0x24; ObjectAddedEx64 has 4
/// uninterpreted bytes at 0x20 (libgphoto2: "might be 64 bit now") and the parent at 0x24. Uninterpreted bytes and
/// whatever follows the file name's NUL are kept in ``reserved`` and ``trailing`` so that a record re-encodes byte
/// for byte. The file name is the camera's: it must never choose a path on the host.
public struct CanonEOSObjectAdded: Hashable, Sendable {
    /// ``EventCode/Canon/objectAddedEx`` or ``EventCode/Canon/objectAddedEx64``.
    public var code: EventCode
    /// The new object's handle.
    public var handle: ObjectHandle
    /// The card it is on.
    public var storageID: StorageID
    /// Its format (Canon CR2 0xB103, CR3 0xB108, EXIF/JPEG 0x3801, …).
    public var format: ObjectFormatCode
    /// Its size in bytes (32 bits in both layouts, as libgphoto2 reads it).
    public var byteCount: UInt32
    /// The folder's handle.
    public var parent: ObjectHandle
    /// ObjectAddedEx64's second handle (0x28); `nil` for ObjectAddedEx.
    public var secondHandle: ObjectHandle?
    /// The file name on the card, e.g. `IMG_0001.CR2`.
    public var filename: String
    /// The 14 uninterpreted bytes (10 after the format, then the 4-byte gap of the layout), zero when made here.
    public var reserved: [UInt8]
    /// Bytes after the file name's NUL (padding), kept for re-encoding.
    public var trailing: [UInt8]

    /// Creates a record; ``reserved`` is zero and there is no padding.
    public init(
        code: EventCode = EventCode.Canon.objectAddedEx, handle: ObjectHandle, storageID: StorageID,
        format: ObjectFormatCode, byteCount: UInt32, parent: ObjectHandle, secondHandle: ObjectHandle? = nil,
        filename: String
    ) {
        self.code = code
        self.handle = handle
        self.storageID = storageID
        self.format = format
        self.byteCount = byteCount
        self.parent = parent
        self.secondHandle = code == EventCode.Canon.objectAddedEx64 ? (secondHandle ?? ObjectHandle(rawValue: 0)) : nil
        self.filename = filename
        self.reserved = Array(repeating: 0, count: 14)
        self.trailing = []
    }

    private var is64: Bool { code == EventCode.Canon.objectAddedEx64 }

    /// Reads the payload (the bytes after the record header).
    init(code: EventCode, payload reader: inout WireReader) throws(WireError) {
        self.code = code
        handle = ObjectHandle(rawValue: try reader.read())
        storageID = StorageID(rawValue: try reader.read())
        format = ObjectFormatCode(rawValue: try reader.read())
        var reserved = Array(try reader.readBytes(count: 10))
        byteCount = try reader.read()
        if code == EventCode.Canon.objectAddedEx64 {
            reserved += try reader.readBytes(count: 4)
            parent = ObjectHandle(rawValue: try reader.read())
            secondHandle = ObjectHandle(rawValue: try reader.read())
        } else {
            parent = ObjectHandle(rawValue: try reader.read())
            reserved += try reader.readBytes(count: 4)
            secondHandle = nil
        }
        self.reserved = reserved
        filename = try reader.readCString("EOS object file name")
        trailing = Array(reader.readRemaining())
    }

    /// Writes the payload.
    func encodePayload(into writer: inout WireWriter) {
        let gap = Array((reserved + Array(repeating: 0, count: 14)).prefix(14))
        writer.write(handle.rawValue)
        writer.write(storageID.rawValue)
        writer.write(format.rawValue)
        writer.write(bytes: gap.prefix(10))
        writer.write(byteCount)
        if is64 {
            writer.write(bytes: gap.suffix(4))
            writer.write(parent.rawValue)
            writer.write(secondHandle?.rawValue ?? 0)
        } else {
            writer.write(parent.rawValue)
            writer.write(bytes: gap.suffix(4))
        }
        writer.writeCString(filename)
        writer.write(bytes: trailing)
    }
}
