import WireFormat

/// The value of Canon EOS ImageFormat (0xD120): which files one shot writes, each with its type, size and
/// compression.
///
/// Layout (libgphoto2 `ptp-pack.c` `ptp_unpack_EOS_ImageFormat` and `ptp_pack_EOS_ImageFormat`, all UINT32
/// little-endian):
///
/// | field | value |
/// |---|---|
/// | number of files | 1 or 2 |
/// | per file: size of the entry | 0x10 |
/// | per file: image type | 1 JPEG, 6 RAW |
/// | per file: image size | 0 Large, 1 Medium, 2 Small (0xE–0x10 S1–S3) |
/// | per file: compression | 2 Standard (JPEG), 3 Fine (JPEG), 4 Lossless (RAW) |
///
/// The same structure is the value of a PropValueChanged record, of SetDevicePropValueEx, and each element of the
/// property's AvailListChanged list (where libgphoto2 special-cases 0xD120–0xD122 for their variable length).
public struct CanonEOSImageFormat: PTPDataset, Hashable {
    /// One file of the shot.
    public struct File: Hashable, Sendable {
        /// Image type: ``jpegType`` or ``rawType``.
        public var type: UInt32
        /// Image size (0 Large).
        public var size: UInt32
        /// Compression (3 Fine for JPEG, 4 Lossless for RAW).
        public var compression: UInt32

        /// Creates an entry.
        public init(type: UInt32, size: UInt32, compression: UInt32) {
            (self.type, self.size, self.compression) = (type, size, compression)
        }
    }

    /// Image type of a JPEG file, 1.
    public static let jpegType: UInt32 = 1
    /// Image type of a RAW file, 6.
    public static let rawType: UInt32 = 6
    /// The property that holds it: ImageFormat, 0xD120 (0xD121/0xD122 are the CF and SD variants).
    public static let property = DevicePropertyCode.Canon.eosImageFormat

    /// Large RAW (lossless).
    public static let raw = CanonEOSImageFormat([File(type: rawType, size: 0, compression: 4)])
    /// Large RAW and a Large Fine JPEG.
    public static let rawPlusJPEG = CanonEOSImageFormat([
        File(type: rawType, size: 0, compression: 4), File(type: jpegType, size: 0, compression: 3),
    ])
    /// A Large Fine JPEG.
    public static let jpegFine = CanonEOSImageFormat([File(type: jpegType, size: 0, compression: 3)])

    /// The files, RAW first as Canon lists them.
    public var files: [File]

    /// Wraps 1 or 2 files.
    public init(_ files: [File]) { self.files = files }

    /// Whether the shot writes a RAW file.
    public var includesRaw: Bool { files.contains { $0.type == Self.rawType } }
    /// Whether the shot writes a JPEG file.
    public var includesJPEG: Bool { files.contains { $0.type == Self.jpegType } }

    /// Reads the structure; a count other than 1 or 2, or an entry size other than 0x10, is invalid (libgphoto2
    /// gives up on both too).
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        let countOffset = reader.offset
        let count = try reader.read(UInt32.self)
        guard count == 1 || count == 2 else {
            throw WireError(.invalidValue, at: countOffset, "EOS ImageFormat with \(count) files")
        }
        var files: [File] = []
        for _ in 0..<count {
            let sizeOffset = reader.offset
            guard try reader.read(UInt32.self) == 0x10 else {
                throw WireError(.invalidValue, at: sizeOffset, "EOS ImageFormat entry size is not 0x10")
            }
            files.append(File(type: try reader.read(), size: try reader.read(), compression: try reader.read()))
        }
        self.files = files
    }

    /// Writes the structure.
    public func encode(into writer: inout WireWriter) {
        writer.write(UInt32(files.count))
        for file in files {
            writer.write(UInt32(0x10))
            writer.write(file.type)
            writer.write(file.size)
            writer.write(file.compression)
        }
    }

    /// The values of an AvailListChanged record of ImageFormat: `count` structures back to back.
    ///
    /// - Throws: ``WireFormat/WireError`` when a structure is malformed or bytes are left over.
    public static func list(_ record: CanonEOSAvailableList) throws(WireError) -> [CanonEOSImageFormat] {
        var reader = WireReader(record.values[...], byteOrder: .little)
        var formats: [CanonEOSImageFormat] = []
        for _ in 0..<min(Int(record.count), 64) {
            formats.append(try CanonEOSImageFormat(from: &reader, quirks: PTPQuirks()))
        }
        return formats
    }
}
