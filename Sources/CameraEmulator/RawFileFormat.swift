import PTP
import RawImage

/// The container a camera model stores its raw shots in: rawcap's TIFF/EP, or a maker's own format that LibRaw
/// decodes (Sony ARW, Fujifilm RAF).
///
/// The format decides the object's PTP ObjectFormat code, its file name extension and its bytes; the pixels are
/// always the rendered frame's.
public enum RawFileFormat: String, Hashable, Sendable, CustomStringConvertible {
    /// TIFF/EP (ISO 12234-2), ObjectFormat 0x3802, `.TIF`: ``TIFFEPWriter``.
    case tiffEP
    /// Sony ARW 2, uncompressed, ObjectFormat 0xB101 (libgphoto2 `ptp.h` `PTP_OFC_SONY_RAW`), `.ARW`: ``ARWWriter``.
    case arw
    /// Fujifilm RAF, uncompressed X-Trans, ObjectFormat 0xB103 (``PTP/ObjectFormatCode/Fujifilm/raf``), `.RAF`:
    /// ``RAFWriter``.
    case raf

    /// The ObjectFormat code ObjectInfo reports.
    public var objectFormat: ObjectFormatCode {
        switch self {
        case .tiffEP: .tiffEP
        case .arw: ObjectFormatCode.Sony.arw
        case .raf: ObjectFormatCode.Fujifilm.raf
        }
    }

    /// The file name extension, upper case as cameras write it.
    public var fileExtension: String {
        switch self {
        case .tiffEP: "TIF"
        case .arw: "ARW"
        case .raf: "RAF"
        }
    }

    /// `TIFF/EP`, `ARW`, `RAF`.
    public var description: String { self == .tiffEP ? "TIFF/EP" : fileExtension }

    /// Encodes `frame` in this format.
    ///
    /// - Parameters:
    ///   - thumbnail: a small JPEG of the shot, embedded where the format has a place for one.
    ///   - software: the Software tag.
    /// - Throws: ``EmulatorError/Code-swift.struct/invalidConfiguration`` when the frame does not fit the format.
    func encode(_ frame: RawFrame, thumbnail: [UInt8]?, software: String) throws(EmulatorError) -> [UInt8] {
        switch self {
        case .tiffEP: return try TIFFEPWriter.encode(frame, software: software)
        case .arw: return try ARWWriter.encode(frame, software: software)
        case .raf:
            guard let thumbnail else {
                throw EmulatorError(.invalidConfiguration, "a RAF file needs the shot's preview JPEG")
            }
            return try RAFWriter.encode(frame, preview: thumbnail, software: software)
        }
    }
}
