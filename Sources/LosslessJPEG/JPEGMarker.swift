/// A JPEG marker: the byte after `0xFF` (ITU T.81 Table B.1).
///
/// An open table: any byte is representable, and ``description`` prints `Unknown(0xFFxx)` for codes that are not
/// listed. Only the markers a lossless decoder must recognise have names.
public struct JPEGMarker: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The second byte of the marker (`0xD8` for SOI).
    public let rawValue: UInt8
    /// Wraps a marker byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0xFFD8, start of image.
    public static let startOfImage = JPEGMarker(rawValue: 0xD8)
    /// 0xFFD9, end of image.
    public static let endOfImage = JPEGMarker(rawValue: 0xD9)
    /// 0xFFC3, start of frame, lossless sequential Huffman coding (process 14): the only frame rawcap decodes.
    public static let startOfFrameLossless = JPEGMarker(rawValue: 0xC3)
    /// 0xFFC4, define Huffman tables.
    public static let defineHuffmanTables = JPEGMarker(rawValue: 0xC4)
    /// 0xFFCC, define arithmetic coding conditioning (arithmetic processes only).
    public static let defineArithmeticConditioning = JPEGMarker(rawValue: 0xCC)
    /// 0xFFDA, start of scan.
    public static let startOfScan = JPEGMarker(rawValue: 0xDA)
    /// 0xFFDB, define quantisation tables (ignored by lossless processes).
    public static let defineQuantizationTables = JPEGMarker(rawValue: 0xDB)
    /// 0xFFDC, define number of lines.
    public static let defineNumberOfLines = JPEGMarker(rawValue: 0xDC)
    /// 0xFFDD, define restart interval.
    public static let defineRestartInterval = JPEGMarker(rawValue: 0xDD)
    /// 0xFFDE, define hierarchical progression.
    public static let defineHierarchicalProgression = JPEGMarker(rawValue: 0xDE)
    /// 0xFFDF, expand reference components (hierarchical).
    public static let expandReferenceComponents = JPEGMarker(rawValue: 0xDF)
    /// 0xFFFE, comment.
    public static let comment = JPEGMarker(rawValue: 0xFE)

    /// RSTm (0xFFD0 + m, m = 0…7): the restart marker that ends restart interval number m modulo 8.
    public static func restart(_ number: Int) -> JPEGMarker { JPEGMarker(rawValue: 0xD0 | UInt8(number & 7)) }

    /// Whether this is one of SOF0…SOF15 (0xFFC0…0xFFCF less DHT, JPG and DAC), which name the coding process.
    public var isStartOfFrame: Bool {
        (0xC0...0xCF).contains(rawValue) && rawValue != 0xC4 && rawValue != 0xC8 && rawValue != 0xCC
    }

    /// The restart number m of RSTm, or `nil` for other markers.
    public var restartNumber: Int? { (0xD0...0xD7).contains(rawValue) ? Int(rawValue & 7) : nil }

    /// Whether this is APP0…APP15 (0xFFE0…0xFFEF), application data that decoders skip.
    public var isApplicationSegment: Bool { (0xE0...0xEF).contains(rawValue) }

    public var description: String {
        switch rawValue {
        case 0xD8: return "SOI"
        case 0xD9: return "EOI"
        case 0xC4: return "DHT"
        case 0xCC: return "DAC"
        case 0xDA: return "SOS"
        case 0xDB: return "DQT"
        case 0xDC: return "DNL"
        case 0xDD: return "DRI"
        case 0xDE: return "DHP"
        case 0xDF: return "EXP"
        case 0xFE: return "COM"
        default: break
        }
        if isStartOfFrame { return "SOF\(rawValue - 0xC0)" }
        if let number = restartNumber { return "RST\(number)" }
        if isApplicationSegment { return "APP\(rawValue - 0xE0)" }
        return "Unknown(0xFF\(hexByte(rawValue)))"
    }
}

/// Two uppercase hex digits, for messages (`0x0A`, not `0xA`).
func hexByte(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return byte < 0x10 ? "0" + digits : digits
}
