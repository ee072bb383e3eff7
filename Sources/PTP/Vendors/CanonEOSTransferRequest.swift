import WireFormat

/// A RequestObjectTransfer (0xC186) or RequestObjectTransfer64 (0xC1A9) record of Canon EOS GetEvent: a shot held
/// in the camera's memory for the host, sent when the capture destination (0xD11C) is the host.
///
/// Payload layout, offsets from the record start (libgphoto2 `ptp-pack.c` `ptp_unpack_CANON_changes`,
/// `PTP_ece_OI_*`; both codes share it):
///
/// | offset | field | type |
/// |---|---|---|
/// | 0x08 | ObjectHandle | UINT32 |
/// | 0x0C | ObjectFormat | UINT16 |
/// | 0x0E–0x13 | (not interpreted) | 6 bytes |
/// | 0x14 | ObjectCompressedSize | UINT32 |
/// | 0x18–0x1B | (not interpreted) | 4 bytes |
/// | 0x1C | Filename | NUL-terminated ASCII |
///
/// RequestObjectTransfer64LFN (0xC1B8, the newest bodies) carries no file name: the handle at 0x08, the format at
/// 0x0C, the size at 0x14 and the parent folder at 0x1D, 37 bytes in all (`PTP_cee_OA64LFN_*`, with a real body's
/// record quoted beside them); ``filename`` is then empty and the driver names the file itself.
///
/// The driver downloads the handle (GetObject, or GetPartialObject64 0x9172 on 64-bit bodies) and then sends
/// TransferComplete (0x9117) with it (libgphoto2 `library.c` `camera_canon_eos_capture`).
public struct CanonEOSTransferRequest: Hashable, Sendable {
    /// ``EventCode/Canon/requestObjectTransfer`` or ``EventCode/Canon/requestObjectTransfer64``.
    public var code: EventCode
    /// The handle to download.
    public var handle: ObjectHandle
    /// Its format.
    public var format: ObjectFormatCode
    /// Its size in bytes.
    public var byteCount: UInt32
    /// The name the camera proposes (never a host path).
    public var filename: String
    /// The 10 uninterpreted bytes (6 after the format, 4 after the size), zero when made here.
    public var reserved: [UInt8]
    /// Bytes after the file name's NUL, kept for re-encoding.
    public var trailing: [UInt8]
    /// The parent folder a RequestObjectTransfer64LFN names (`nil` for the other two codes).
    public var parent: ObjectHandle?

    /// Creates a record with zero reserved bytes.
    public init(
        code: EventCode = EventCode.Canon.requestObjectTransfer, handle: ObjectHandle, format: ObjectFormatCode,
        byteCount: UInt32, filename: String
    ) {
        self.code = code
        self.handle = handle
        self.format = format
        self.byteCount = byteCount
        self.filename = filename
        self.reserved = Array(repeating: 0, count: 10)
        self.trailing = []
        if code == EventCode.Canon.requestObjectTransfer64LFN { parent = ObjectHandle(rawValue: 0) }
    }

    /// Reads the payload.
    init(code: EventCode, payload reader: inout WireReader) throws(WireError) {
        self.code = code
        handle = ObjectHandle(rawValue: try reader.read())
        format = ObjectFormatCode(rawValue: try reader.read())
        var reserved = Array(try reader.readBytes(count: 6))
        byteCount = try reader.read()
        reserved += try reader.readBytes(count: 4)
        if code == EventCode.Canon.requestObjectTransfer64LFN {
            // 0x18–0x1C not interpreted, the parent at 0x1D (record offsets), no name.
            reserved += try reader.readBytes(count: 1)
            parent = ObjectHandle(rawValue: try reader.read())
            filename = ""
        } else {
            filename = try reader.readCString("EOS transfer file name")
        }
        self.reserved = reserved
        trailing = Array(reader.readRemaining())
    }

    /// Writes the payload.
    func encodePayload(into writer: inout WireWriter) {
        let gap = Array((reserved + Array(repeating: 0, count: 10)).prefix(10))
        writer.write(handle.rawValue)
        writer.write(format.rawValue)
        writer.write(bytes: gap.prefix(6))
        writer.write(byteCount)
        writer.write(bytes: gap.suffix(4))
        if let parent, code == EventCode.Canon.requestObjectTransfer64LFN {
            writer.write(bytes: (reserved.count > 10 ? Array(reserved[10...]) : [0]).prefix(1))
            writer.write(parent.rawValue)
        } else {
            writer.writeCString(filename)
        }
        writer.write(bytes: trailing)
    }
}
