/// A demosaiced, scene-linear RGB image in camera space: the content of a LinearRaw DNG (DNG 1.7
/// §PhotometricInterpretation 34892), rawcap's "ProRAW-like" fallback format.
///
/// Samples are interleaved (R, G, B per pixel). When ``linearizationTable`` is set the stored samples are
/// indices into it (e.g. 12-bit companded values) and the table maps them to linear values, as DNG's
/// LinearizationTable does; black and white levels then apply to the table's output.
public struct LinearImage: Sendable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Significant bits in each stored sample (8…16).
    public let bitsPerSample: Int
    /// `width × height × 3` samples.
    public var samples: [UInt16]
    /// Black level per colour channel (3 entries), in linear units.
    public let blackLevels: [Double]
    /// White level per colour channel (3 entries), in linear units.
    public let whiteLevels: [Int]
    /// Maps stored values to linear values (DNG LinearizationTable), when the samples are companded.
    public let linearizationTable: [UInt16]?
    /// The part meant for display (DNG DefaultCropOrigin/Size).
    public let defaultCrop: PixelRect
    /// Colour calibration and white balance, as for the raw frame it came from.
    public var color: ColorCalibration
    /// Camera, exposure and time of the shot.
    public var metadata: CaptureMetadata
    /// A tone curve for rendering, as (input, output) pairs in 0…1 starting at (0, 0) and ending at (1, 1)
    /// (DNG ProfileToneCurve), when one is wanted.
    public var profileToneCurve: [(x: Double, y: Double)]?
    /// How many times wider than tall a pixel is (1 for square pixels), as for the raw frame it came from
    /// (written as DefaultScale, DNG 1.7.1 p.30).
    public var pixelAspectRatio: Double = 1

    /// Creates an image after checking that sizes, levels and the table agree.
    public init(
        width: Int,
        height: Int,
        bitsPerSample: Int,
        samples: [UInt16],
        blackLevels: [Double],
        whiteLevels: [Int],
        linearizationTable: [UInt16]? = nil,
        defaultCrop: PixelRect? = nil,
        color: ColorCalibration = .uncalibrated,
        metadata: CaptureMetadata = CaptureMetadata(),
        profileToneCurve: [(x: Double, y: Double)]? = nil
    ) throws(RawImageError) {
        guard (1...RawFrame.maxDimension).contains(width), (1...RawFrame.maxDimension).contains(height) else {
            throw RawImageError(.invalidSize, "\(width)×\(height)")
        }
        guard (8...16).contains(bitsPerSample) else {
            throw RawImageError(.unsupportedBitDepth, "\(bitsPerSample) bits per sample; rawcap handles 8 to 16")
        }
        guard samples.count == width * height * 3 else {
            throw RawImageError(.sampleCountMismatch, "\(samples.count) samples for \(width)×\(height)×3")
        }
        if let linearizationTable {
            guard !linearizationTable.isEmpty, linearizationTable.count <= 1 << bitsPerSample else {
                throw RawImageError(
                    .invalidLevels, "linearization table of \(linearizationTable.count) entries for \(bitsPerSample) bits")
            }
        }
        let linearMax = linearizationTable.map { _ in 65535 } ?? (1 << bitsPerSample) - 1
        guard blackLevels.count == 3, whiteLevels.count == 3,
            zip(blackLevels, whiteLevels).allSatisfy({ $0.isFinite && $0 >= 0 && Double($1) > $0 && $1 <= linearMax })
        else {
            throw RawImageError(.invalidLevels, "black \(blackLevels), white \(whiteLevels)")
        }
        let crop = defaultCrop ?? PixelRect(width: width, height: height)
        guard crop.width > 0, crop.height > 0, PixelRect(width: width, height: height).contains(crop) else {
            throw RawImageError(.invalidGeometry, "default crop \(crop) is outside \(width)×\(height)")
        }
        if let profileToneCurve {
            guard profileToneCurve.count >= 2, profileToneCurve.first.map({ $0.x == 0 && $0.y == 0 }) == true,
                profileToneCurve.last.map({ $0.x == 1 && $0.y == 1 }) == true
            else {
                throw RawImageError(.invalidColor, "ProfileToneCurve must run from (0, 0) to (1, 1)")
            }
        }
        self.width = width
        self.height = height
        self.bitsPerSample = bitsPerSample
        self.samples = samples
        self.blackLevels = blackLevels
        self.whiteLevels = whiteLevels
        self.linearizationTable = linearizationTable
        self.defaultCrop = crop
        self.color = color
        self.metadata = metadata
        self.profileToneCurve = profileToneCurve
    }
}
