import TIFFVocabulary

/// One IFD of a TIFF file as read by libtiff: the fields that describe its image and how the image is stored,
/// and every other tag's value. A plain value, so everything after the libtiff adapter is pure Swift.
public struct TIFFDirectory: Sendable {
    /// Largest element count copied out of libtiff for one tag; bigger values (embedded original raw files, large
    /// XMP packets) are recorded as ``TIFFTagValue/omitted(count:)``.
    public static let maxCopiedElements = 1 << 20

    /// Where this IFD sits: in the main chain or below another IFD.
    public enum Position: Hashable, Sendable, CustomStringConvertible {
        /// The `index`-th IFD of the main chain (IFD0, IFD1, …).
        case chain(index: Int)
        /// The `index`-th SubIFD of the IFD at `parentOffset`, `depth` levels below the chain.
        case subIFD(parentOffset: UInt64, index: Int, depth: Int)

        public var description: String {
            switch self {
            case .chain(let index): "IFD\(index)"
            case .subIFD(_, let index, _): "SubIFD\(index)"
            }
        }
    }

    /// How the image data is cut up in the file.
    public enum Layout: Hashable, Sendable {
        /// Strips of `rowsPerStrip` rows.
        case strips(rowsPerStrip: Int)
        /// Tiles of `width × height` pixels.
        case tiles(width: Int, height: Int)
    }

    /// The byte offset of the IFD in the file.
    public let offset: UInt64
    /// Where the IFD sits in the tree.
    public let position: Position
    /// A readable path such as `IFD0/SubIFD1`.
    public let path: String
    /// NewSubfileType (0 = main image, 1 = preview; TIFF 6.0 §8, DNG 1.7 p.19); 0 when absent.
    public let newSubfileType: UInt32
    /// ImageWidth.
    public let width: Int
    /// ImageLength.
    public let height: Int
    /// BitsPerSample (libtiff keeps one value for all samples).
    public let bitsPerSample: Int
    /// SamplesPerPixel.
    public let samplesPerPixel: Int
    /// SampleFormat: 1 unsigned integer (the default), 2 signed, 3 float.
    public let sampleFormat: Int
    /// Compression.
    public let compression: TIFFCompression
    /// PhotometricInterpretation, when present.
    public let photometric: TIFFPhotometric?
    /// PlanarConfiguration: 1 chunky (default), 2 planar.
    public let planarConfiguration: Int
    /// FillOrder: 1 (default) most significant bit first.
    public let fillOrder: Int
    /// Orientation, when present.
    public let orientation: UInt16?
    /// Strips or tiles.
    public let layout: Layout
    /// StripOffsets or TileOffsets.
    public let dataOffsets: [UInt64]
    /// StripByteCounts or TileByteCounts.
    public let dataByteCounts: [UInt64]
    /// SubIFDs offsets.
    public let subIFDOffsets: [UInt64]
    /// Every other tag present in the IFD (libtiff's custom fields: DNG, EXIF pointer, Make, Model, …).
    public let tags: [TIFFTag: TIFFTagValue]

    /// Creates a directory value; used by the libtiff adapter and by tests.
    public init(
        offset: UInt64, position: Position, path: String, newSubfileType: UInt32, width: Int, height: Int,
        bitsPerSample: Int, samplesPerPixel: Int, sampleFormat: Int = 1, compression: TIFFCompression,
        photometric: TIFFPhotometric?, planarConfiguration: Int = 1, fillOrder: Int = 1, orientation: UInt16? = nil,
        layout: Layout, dataOffsets: [UInt64], dataByteCounts: [UInt64], subIFDOffsets: [UInt64] = [],
        tags: [TIFFTag: TIFFTagValue] = [:]
    ) {
        self.offset = offset
        self.position = position
        self.path = path
        self.newSubfileType = newSubfileType
        self.width = width
        self.height = height
        self.bitsPerSample = bitsPerSample
        self.samplesPerPixel = samplesPerPixel
        self.sampleFormat = sampleFormat
        self.compression = compression
        self.photometric = photometric
        self.planarConfiguration = planarConfiguration
        self.fillOrder = fillOrder
        self.orientation = orientation
        self.layout = layout
        self.dataOffsets = dataOffsets
        self.dataByteCounts = dataByteCounts
        self.subIFDOffsets = subIFDOffsets
        self.tags = tags
    }

    /// The same directory with other strip or tile byte counts and tag values.
    func replacing(byteCounts: [UInt64], tags: [TIFFTag: TIFFTagValue]) -> TIFFDirectory {
        TIFFDirectory(
            offset: offset, position: position, path: path, newSubfileType: newSubfileType, width: width,
            height: height, bitsPerSample: bitsPerSample, samplesPerPixel: samplesPerPixel,
            sampleFormat: sampleFormat, compression: compression, photometric: photometric,
            planarConfiguration: planarConfiguration, fillOrder: fillOrder, orientation: orientation, layout: layout,
            dataOffsets: dataOffsets, dataByteCounts: byteCounts, subIFDOffsets: subIFDOffsets, tags: tags)
    }

    /// The value of `tag`, when present.
    public subscript(tag: TIFFTag) -> TIFFTagValue? { tags[tag] }

    /// Whether this IFD holds a full-resolution raw image: NewSubfileType 0 with CFA or LinearRaw data.
    public var isRawImage: Bool {
        newSubfileType == 0 && (photometric == .cfa || photometric == .linearRaw)
    }

    /// Whether this IFD holds a preview or thumbnail: NewSubfileType 1 or 0x10001 (alternate preview), or an
    /// RGB/YCbCr/grey image in the main chain that is not the raw image.
    public var isPreview: Bool {
        let previewTypes: Set<UInt32> = [1, 0x10001]
        let displayPhotometrics: Set<TIFFPhotometric> = [.rgb, .yCbCr, .blackIsZero]
        guard let photometric, displayPhotometrics.contains(photometric) else { return false }
        return previewTypes.contains(newSubfileType) || newSubfileType == 0
    }
}
