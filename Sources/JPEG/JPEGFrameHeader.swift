import WireFormat

/// The frame header (SOFn) of a JPEG file, read to describe a preview JPEG in its TIFF IFD.
///
/// ITU T.81 §B.2.2: after SOI (`FFD8`) come marker segments (`FFxx`, a big-endian length that counts itself, then
/// the payload) until a SOF segment:
///
/// | field | size | meaning |
/// |---|---|---|
/// | P | 1 | sample precision |
/// | Y | 2 | number of lines |
/// | X | 2 | samples per line |
/// | Nf | 1 | components |
/// | per component: C, H/V, Tq | 1, 1, 1 | id, sampling factors (high nibble H), quantisation table |
public struct JPEGFrameHeader: Sendable, Hashable {
    /// The SOF marker's second byte: `0xC0` baseline, `0xC1` extended sequential, `0xC3` lossless, ….
    public let marker: UInt8
    /// Sample precision in bits.
    public let precision: Int
    /// Samples per line.
    public let width: Int
    /// Lines.
    public let height: Int
    /// Horizontal and vertical sampling factors of each component.
    public let samplingFactors: [(horizontal: Int, vertical: Int)]

    /// Reads the first frame header of `bytes`.
    ///
    /// - Throws: `WireError` when the bytes are not a JPEG file, are truncated before the frame header, or reach a
    ///   scan (SOS) before any frame header.
    public init(parsing bytes: [UInt8]) throws(WireError) {
        var reader = WireReader(bytes, byteOrder: .big)
        guard try reader.read(UInt16.self) == 0xFFD8 else { throw WireError(.invalidValue, at: 0, "no SOI marker") }
        while true {
            let markerOffset = reader.offset
            guard try reader.read(UInt8.self) == 0xFF else {
                throw WireError(.invalidValue, at: markerOffset, "expected a marker")
            }
            var marker = try reader.read(UInt8.self)
            while marker == 0xFF { marker = try reader.read(UInt8.self) }  // fill bytes (T.81 §B.1.1.2)
            switch marker {
            case 0xD0...0xD7, 0x01:
                continue  // markers without a length
            case 0xDA, 0xD9:
                throw WireError(.invalidValue, at: markerOffset, "scan or end of image before a frame header")
            default:
                break
            }
            let length = Int(try reader.read(UInt16.self))
            guard length >= 2 else { throw WireError(.invalidValue, at: markerOffset, "segment length \(length)") }
            var segment = try reader.readReader(count: length - 2)
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            guard isFrame else { continue }
            let precision = Int(try segment.read(UInt8.self))
            let height = Int(try segment.read(UInt16.self))
            let width = Int(try segment.read(UInt16.self))
            let componentCount = Int(try segment.read(UInt8.self))
            var factors: [(horizontal: Int, vertical: Int)] = []
            for _ in 0..<componentCount {
                _ = try segment.read(UInt8.self)
                let sampling = try segment.read(UInt8.self)
                _ = try segment.read(UInt8.self)
                factors.append((Int(sampling >> 4), Int(sampling & 0x0F)))
            }
            self.marker = marker
            self.precision = precision
            self.width = width
            self.height = height
            self.samplingFactors = factors
            return
        }
    }

    /// Headers are equal when every field is.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.marker == rhs.marker && lhs.precision == rhs.precision && lhs.width == rhs.width
            && lhs.height == rhs.height && lhs.samplingFactors.elementsEqual(rhs.samplingFactors, by: { $0 == $1 })
    }

    /// Hashes the marker and the size.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(marker)
        hasher.combine(width)
        hasher.combine(height)
    }
}
