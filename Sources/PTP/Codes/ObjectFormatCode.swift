/// A PTP object format code: what kind of file an object is.
///
/// Vendor raw formats overlap (Canon CRW and Sony ARW are both 0xB101), so name them with the vendor; Nikon reports NEF
/// as ``undefined``. ISO 15740 §6.2.
public struct ObjectFormatCode: PTPCodeTable {
    /// The 16-bit code as it appears on the wire.
    public let rawValue: UInt16

    /// Wraps any code, known or not: the table is open, so a camera's new codes pass through unharmed.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Undefined, 0x3000 (PTP §6.2): also used by Nikon for NEF.
    public static let undefined = ObjectFormatCode(rawValue: 0x3000)
    /// Association, 0x3001 (PTP §6.2): a folder.
    public static let association = ObjectFormatCode(rawValue: 0x3001)
    /// Script, 0x3002 (PTP §6.2).
    public static let script = ObjectFormatCode(rawValue: 0x3002)
    /// Executable, 0x3003 (PTP §6.2).
    public static let executable = ObjectFormatCode(rawValue: 0x3003)
    /// Text, 0x3004 (PTP §6.2).
    public static let text = ObjectFormatCode(rawValue: 0x3004)
    /// HTML, 0x3005 (PTP §6.2).
    public static let html = ObjectFormatCode(rawValue: 0x3005)
    /// DPOF, 0x3006 (PTP §6.2).
    public static let dpof = ObjectFormatCode(rawValue: 0x3006)
    /// AIFF, 0x3007 (PTP §6.2).
    public static let aiff = ObjectFormatCode(rawValue: 0x3007)
    /// WAV, 0x3008 (PTP §6.2).
    public static let wav = ObjectFormatCode(rawValue: 0x3008)
    /// MP3, 0x3009 (PTP §6.2).
    public static let mp3 = ObjectFormatCode(rawValue: 0x3009)
    /// AVI, 0x300A (PTP §6.2).
    public static let avi = ObjectFormatCode(rawValue: 0x300A)
    /// MPEG, 0x300B (PTP §6.2).
    public static let mpeg = ObjectFormatCode(rawValue: 0x300B)
    /// ASF, 0x300C (PTP §6.2).
    public static let asf = ObjectFormatCode(rawValue: 0x300C)
    /// QT, 0x300D (PTP §6.2).
    public static let qt = ObjectFormatCode(rawValue: 0x300D)
    /// Defined, 0x3800 (PTP §6.2): an image of unknown format.
    public static let defined = ObjectFormatCode(rawValue: 0x3800)
    /// EXIF_JPEG, 0x3801 (PTP §6.2).
    public static let exifJPEG = ObjectFormatCode(rawValue: 0x3801)
    /// TIFF_EP, 0x3802 (PTP §6.2): TIFF/EP raw.
    public static let tiffEP = ObjectFormatCode(rawValue: 0x3802)
    /// FlashPix, 0x3803 (PTP §6.2).
    public static let flashPix = ObjectFormatCode(rawValue: 0x3803)
    /// BMP, 0x3804 (PTP §6.2).
    public static let bmp = ObjectFormatCode(rawValue: 0x3804)
    /// CIFF, 0x3805 (PTP §6.2).
    public static let ciff = ObjectFormatCode(rawValue: 0x3805)
    /// GIF, 0x3807 (PTP §6.2).
    public static let gif = ObjectFormatCode(rawValue: 0x3807)
    /// JFIF, 0x3808 (PTP §6.2).
    public static let jfif = ObjectFormatCode(rawValue: 0x3808)
    /// PCD, 0x3809 (PTP §6.2).
    public static let pcd = ObjectFormatCode(rawValue: 0x3809)
    /// PICT, 0x380A (PTP §6.2).
    public static let pict = ObjectFormatCode(rawValue: 0x380A)
    /// PNG, 0x380B (PTP §6.2).
    public static let png = ObjectFormatCode(rawValue: 0x380B)
    /// TIFF, 0x380D (PTP §6.2).
    public static let tiff = ObjectFormatCode(rawValue: 0x380D)
    /// TIFF_IT, 0x380E (PTP §6.2).
    public static let tiffIT = ObjectFormatCode(rawValue: 0x380E)
    /// JP2, 0x380F (PTP §6.2).
    public static let jp2 = ObjectFormatCode(rawValue: 0x380F)
    /// JPX, 0x3810 (PTP §6.2).
    public static let jpx = ObjectFormatCode(rawValue: 0x3810)
    /// DNG, 0x3811 (PTP §6.2): PTP 1.1.
    public static let dng = ObjectFormatCode(rawValue: 0x3811)

    /// The names of the codes the standard defines, keyed by raw value.
    public static let standardNames: [UInt16: String] = [
        0x3000: "Undefined",
        0x3001: "Association",
        0x3002: "Script",
        0x3003: "Executable",
        0x3004: "Text",
        0x3005: "HTML",
        0x3006: "DPOF",
        0x3007: "AIFF",
        0x3008: "WAV",
        0x3009: "MP3",
        0x300A: "AVI",
        0x300B: "MPEG",
        0x300C: "ASF",
        0x300D: "QT",
        0x3800: "Defined",
        0x3801: "EXIF_JPEG",
        0x3802: "TIFF_EP",
        0x3803: "FlashPix",
        0x3804: "BMP",
        0x3805: "CIFF",
        0x3807: "GIF",
        0x3808: "JFIF",
        0x3809: "PCD",
        0x380A: "PICT",
        0x380B: "PNG",
        0x380D: "TIFF",
        0x380E: "TIFF_IT",
        0x380F: "JP2",
        0x3810: "JPX",
        0x3811: "DNG",
    ]
}
