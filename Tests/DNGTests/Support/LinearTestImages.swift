import DNG
import RawImage

/// LinearImage inputs built by hand (the demosaic that normally produces them belongs to the renderer).
enum LinearTestImages {
    /// A 12-bit companded table: stored value v maps to v² / 256 (0 … 65504), as a camera's gamma-like curve.
    static let companding: [UInt16] = (0..<4096).map { UInt16(($0 * $0) / 256) }

    /// A LinearRaw image with a 12-bit LinearizationTable (or plain 16-bit samples), a tone curve and metadata.
    static func image(width: Int, height: Int, companded: Bool = true, seed: UInt64 = 11) throws -> LinearImage {
        let bits = companded ? 12 : 16
        return try LinearImage(
            width: width, height: height, bitsPerSample: bits,
            samples: TestImages.samples(count: width * height * 3, maximum: (1 << bits) - 1, seed: seed),
            blackLevels: [256, 260, 264], whiteLevels: companded ? [65504, 65504, 65504] : [65535, 65535, 65535],
            linearizationTable: companded ? companding : nil, color: try TestImages.calibration(),
            metadata: try TestImages.metadata(), profileToneCurve: [(0, 0), (0.1, 0.2), (0.5, 0.72), (1, 1)])
    }

    /// A thumbnail from the image's top bits.
    static func thumbnail(of image: LinearImage) throws -> RGBImage8 {
        let shift = image.bitsPerSample - 8
        return try RGBImage8(
            width: image.width, height: image.height, pixels: image.samples.map { UInt8(min(255, $0 >> shift)) })
    }
}
