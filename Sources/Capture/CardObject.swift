import PTP

/// An object on the camera's card, as `rawcap ls` lists it.
public struct CardObject: Hashable, Sendable {
    /// Its handle.
    public var handle: ObjectHandle
    /// Its ObjectInfo.
    public var info: ObjectInfo

    /// Creates an entry.
    public init(handle: ObjectHandle, info: ObjectInfo) {
        self.handle = handle
        self.info = info
    }

    /// A raw object rawcap can decode: TIFF/EP, DNG, a vendor raw in the vendor range (Canon CR2 0xB103, CR3
    /// 0xB108, Sony ARW 0xB101, …), or a file whose name has a maker's raw extension (``rawExtensions``), since
    /// Nikon reports its NEF as Undefined (0x3000) and other makers' formats vary by model.
    public var isRaw: Bool {
        if info.objectFormat == .tiffEP || info.objectFormat == .dng || info.objectFormat.rawValue & 0xB000 == 0xB000 {
            return true
        }
        guard !isJPEG, info.objectFormat != .association, let dot = info.filename.lastIndex(of: ".") else {
            return false
        }
        return Self.rawExtensions.contains(info.filename[info.filename.index(after: dot)...].lowercased())
    }

    /// The makers' raw file extensions: Nikon NEF/NRW, Canon CR2/CR3, Sony ARW/SR2, Fujifilm RAF, Olympus ORF,
    /// Panasonic RW2 (and DNG).
    public static let rawExtensions: Set<String> = ["nef", "nrw", "cr2", "cr3", "arw", "sr2", "raf", "orf", "rw2", "dng"]

    /// A JPEG.
    public var isJPEG: Bool { info.objectFormat == .exifJPEG || info.objectFormat == .jfif }

    /// The camera's name without its extension (`RCAP0001`), sanitised; pairs a raw file with its JPEG.
    public var stem: String {
        let name = info.filename
        let base = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        return FileNamer.sanitize(base)
    }

    /// What identifies the object across sessions (handles may change): camera file name and capture date.
    public var key: String { "\(info.filename)|\(info.captureDate)" }

    /// The extension its original is saved with: the camera's as it wrote it, when it is a short alphanumeric one, else one
    /// chosen from the format.
    public var originalExtension: String {
        let name = info.filename
        if let dot = name.lastIndex(of: ".") {
            // As the camera wrote it (`RCAP0001.TIF` stays `.TIF`).
            let ext = String(name[name.index(after: dot)...])
            if (1...5).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                return ext
            }
        }
        switch info.objectFormat {
        case .exifJPEG, .jfif: return "jpg"
        case .tiffEP, .tiff: return "tif"
        case .dng: return "dng"
        default: return "bin"
        }
    }
}
