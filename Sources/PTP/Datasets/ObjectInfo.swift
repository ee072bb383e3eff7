import WireFormat

/// The ObjectInfo dataset: an object's format, size, thumbnail, image geometry, parent, name and dates; the data
/// phase of GetObjectInfo (0x1008) and of SendObjectInfo (0x100C).
///
/// ISO 15740 §5.5.2 (libgphoto2 `ptp_unpack_OI`):
///
/// | field | type |
/// |---|---|
/// | StorageID | UINT32 |
/// | ObjectFormat | UINT16 |
/// | ProtectionStatus | UINT16 |
/// | ObjectCompressedSize | UINT32 (bytes; 0xFFFFFFFF for objects of 4 GiB or more) |
/// | ThumbFormat | UINT16 |
/// | ThumbCompressedSize | UINT32 |
/// | ThumbPixWidth, ThumbPixHeight | UINT32 × 2 |
/// | ImagePixWidth, ImagePixHeight, ImageBitDepth | UINT32 × 3 |
/// | ParentObject | UINT32 (0: root) |
/// | AssociationType | UINT16 |
/// | AssociationDesc | UINT32 |
/// | SequenceNumber | UINT32 |
/// | Filename, CaptureDate, ModificationDate, Keywords | string × 4 (dates as ``PTPDateTime`` strings) |
///
/// The file name is the camera's and untrusted: it must never choose a path on the host.
public struct ObjectInfo: PTPDataset, Hashable {
    /// The store holding the object.
    public var storageID: StorageID
    /// The object's format.
    public var objectFormat: ObjectFormatCode
    /// Whether the object is write-protected.
    public var protectionStatus: ProtectionStatus
    /// The size in bytes; 0xFFFFFFFF when it does not fit 32 bits.
    public var objectCompressedSize: UInt32
    /// The thumbnail's format (``ObjectFormatCode/undefined`` when there is none).
    public var thumbFormat: ObjectFormatCode
    /// The thumbnail's size in bytes.
    public var thumbCompressedSize: UInt32
    /// The thumbnail's width in pixels.
    public var thumbPixWidth: UInt32
    /// The thumbnail's height in pixels.
    public var thumbPixHeight: UInt32
    /// The image's width in pixels.
    public var imagePixWidth: UInt32
    /// The image's height in pixels.
    public var imagePixHeight: UInt32
    /// The image's bit depth.
    public var imageBitDepth: UInt32
    /// The folder holding the object; 0 for the root.
    public var parentObject: ObjectHandle
    /// What kind of association (folder) this is, for ``ObjectFormatCode/association`` objects.
    public var associationType: AssociationType
    /// Association-specific data.
    public var associationDesc: UInt32
    /// The object's place in a sequence (bursts, brackets).
    public var sequenceNumber: UInt32
    /// The camera's file name, e.g. `IMG_7520.JPG`.
    public var filename: String
    /// The capture date as a PTP date-time string (may be empty); parsed by ``captureDateTime``.
    public var captureDate: String
    /// The modification date as a PTP date-time string (may be empty).
    public var modificationDate: String
    /// Keywords.
    public var keywords: String

    /// Creates an ObjectInfo.
    public init(
        storageID: StorageID = StorageID(rawValue: 0), objectFormat: ObjectFormatCode = .undefined,
        protectionStatus: ProtectionStatus = .noProtection, objectCompressedSize: UInt32 = 0,
        thumbFormat: ObjectFormatCode = .undefined, thumbCompressedSize: UInt32 = 0, thumbPixWidth: UInt32 = 0,
        thumbPixHeight: UInt32 = 0, imagePixWidth: UInt32 = 0, imagePixHeight: UInt32 = 0, imageBitDepth: UInt32 = 0,
        parentObject: ObjectHandle = ObjectHandle(rawValue: 0), associationType: AssociationType = .undefined,
        associationDesc: UInt32 = 0, sequenceNumber: UInt32 = 0, filename: String = "", captureDate: String = "",
        modificationDate: String = "", keywords: String = ""
    ) {
        self.storageID = storageID
        self.objectFormat = objectFormat
        self.protectionStatus = protectionStatus
        self.objectCompressedSize = objectCompressedSize
        self.thumbFormat = thumbFormat
        self.thumbCompressedSize = thumbCompressedSize
        self.thumbPixWidth = thumbPixWidth
        self.thumbPixHeight = thumbPixHeight
        self.imagePixWidth = imagePixWidth
        self.imagePixHeight = imagePixHeight
        self.imageBitDepth = imageBitDepth
        self.parentObject = parentObject
        self.associationType = associationType
        self.associationDesc = associationDesc
        self.sequenceNumber = sequenceNumber
        self.filename = filename
        self.captureDate = captureDate
        self.modificationDate = modificationDate
        self.keywords = keywords
    }

    /// Reads ObjectInfo.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        storageID = StorageID(rawValue: try reader.read())
        objectFormat = ObjectFormatCode(rawValue: try reader.read())
        protectionStatus = ProtectionStatus(rawValue: try reader.read())
        objectCompressedSize = try reader.read()
        thumbFormat = ObjectFormatCode(rawValue: try reader.read())
        thumbCompressedSize = try reader.read()
        thumbPixWidth = try reader.read()
        thumbPixHeight = try reader.read()
        imagePixWidth = try reader.read()
        imagePixHeight = try reader.read()
        imageBitDepth = try reader.read()
        parentObject = ObjectHandle(rawValue: try reader.read())
        associationType = AssociationType(rawValue: try reader.read())
        associationDesc = try reader.read()
        sequenceNumber = try reader.read()
        filename = try PTPString.read(from: &reader, quirks: quirks)
        captureDate = try PTPString.read(from: &reader, quirks: quirks)
        modificationDate = try PTPString.read(from: &reader, quirks: quirks)
        keywords = try PTPString.read(from: &reader, quirks: quirks)
    }

    /// Writes ObjectInfo.
    public func encode(into writer: inout WireWriter) {
        writer.write(storageID.rawValue)
        writer.write(objectFormat.rawValue)
        writer.write(protectionStatus.rawValue)
        writer.write(objectCompressedSize)
        writer.write(thumbFormat.rawValue)
        writer.write(thumbCompressedSize)
        writer.write(thumbPixWidth)
        writer.write(thumbPixHeight)
        writer.write(imagePixWidth)
        writer.write(imagePixHeight)
        writer.write(imageBitDepth)
        writer.write(parentObject.rawValue)
        writer.write(associationType.rawValue)
        writer.write(associationDesc)
        writer.write(sequenceNumber)
        PTPString.write(filename, into: &writer)
        PTPString.write(captureDate, into: &writer)
        PTPString.write(modificationDate, into: &writer)
        PTPString.write(keywords, into: &writer)
    }

    /// The capture date parsed, or `nil` when it is empty or not a valid PTP date-time.
    public var captureDateTime: PTPDateTime? { try? PTPDateTime(ptpString: captureDate) }

    /// The modification date parsed, or `nil` when it is empty or not a valid PTP date-time.
    public var modificationDateTime: PTPDateTime? { try? PTPDateTime(ptpString: modificationDate) }

    /// The object's size in bytes, or `nil` when the camera reports 0xFFFFFFFF (4 GiB or more, size unknown).
    public var byteCount: UInt64? { objectCompressedSize == 0xFFFF_FFFF ? nil : UInt64(objectCompressedSize) }
}
