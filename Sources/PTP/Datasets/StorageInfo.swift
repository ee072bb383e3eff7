import WireFormat

/// The StorageInfo dataset: one store's kind, capacity and labels; the data phase of GetStorageInfo (0x1005).
///
/// ISO 15740 §5.5.3 (libgphoto2 `ptp_unpack_SI`):
///
/// | field | type |
/// |---|---|
/// | StorageType | UINT16 |
/// | FilesystemType | UINT16 |
/// | AccessCapability | UINT16 |
/// | MaxCapacity | UINT64 (bytes) |
/// | FreeSpaceInBytes | UINT64 |
/// | FreeSpaceInImages | UINT32 (0xFFFFFFFF: not used) |
/// | StorageDescription | string |
/// | VolumeLabel | string |
public struct StorageInfo: PTPDataset, Hashable {
    /// ROM or RAM, fixed or removable.
    public var storageType: StorageType
    /// Flat, hierarchical or DCF.
    public var filesystemType: FilesystemType
    /// Read-write, read-only, or read-only with deletion.
    public var accessCapability: AccessCapability
    /// The store's size in bytes.
    public var maxCapacity: UInt64
    /// Free bytes.
    public var freeSpaceInBytes: UInt64
    /// Free space counted in images; 0xFFFFFFFF when the device does not count (see ``freeImages``).
    public var freeSpaceInImages: UInt32
    /// A description such as `"SD"`.
    public var storageDescription: String
    /// The volume label.
    public var volumeLabel: String

    /// Creates a StorageInfo.
    public init(
        storageType: StorageType = .removableRAM, filesystemType: FilesystemType = .dcf,
        accessCapability: AccessCapability = .readWrite, maxCapacity: UInt64 = 0, freeSpaceInBytes: UInt64 = 0,
        freeSpaceInImages: UInt32 = 0xFFFF_FFFF, storageDescription: String = "", volumeLabel: String = ""
    ) {
        self.storageType = storageType
        self.filesystemType = filesystemType
        self.accessCapability = accessCapability
        self.maxCapacity = maxCapacity
        self.freeSpaceInBytes = freeSpaceInBytes
        self.freeSpaceInImages = freeSpaceInImages
        self.storageDescription = storageDescription
        self.volumeLabel = volumeLabel
    }

    /// Reads StorageInfo.
    public init(from reader: inout WireReader, quirks: PTPQuirks) throws(WireError) {
        storageType = StorageType(rawValue: try reader.read())
        filesystemType = FilesystemType(rawValue: try reader.read())
        accessCapability = AccessCapability(rawValue: try reader.read())
        maxCapacity = try reader.read()
        freeSpaceInBytes = try reader.read()
        freeSpaceInImages = try reader.read()
        storageDescription = try PTPString.read(from: &reader, quirks: quirks)
        volumeLabel = try PTPString.read(from: &reader, quirks: quirks)
    }

    /// Writes StorageInfo.
    public func encode(into writer: inout WireWriter) {
        writer.write(storageType.rawValue)
        writer.write(filesystemType.rawValue)
        writer.write(accessCapability.rawValue)
        writer.write(maxCapacity)
        writer.write(freeSpaceInBytes)
        writer.write(freeSpaceInImages)
        PTPString.write(storageDescription, into: &writer)
        PTPString.write(volumeLabel, into: &writer)
    }

    /// Free space in images, or `nil` when the device reports 0xFFFFFFFF (not used).
    public var freeImages: UInt32? { freeSpaceInImages == 0xFFFF_FFFF ? nil : freeSpaceInImages }
}
