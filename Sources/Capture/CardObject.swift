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

    /// A raw object rawcap can decode (TIFF/EP, DNG, or a vendor raw in the vendor range).
    public var isRaw: Bool {
        info.objectFormat == .tiffEP || info.objectFormat == .dng || info.objectFormat.rawValue & 0xB000 == 0xB000
    }

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

    /// The extension its original is saved with: the camera's, when it is a short alphanumeric one, else one
    /// chosen from the format.
    public var originalExtension: String {
        let name = info.filename
        if let dot = name.lastIndex(of: ".") {
            let ext = name[name.index(after: dot)...].lowercased()
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
