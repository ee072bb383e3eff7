#if canImport(Glibc)
    import Glibc
#endif

/// Per-pixel colour processing, from camera RGB (0 black, 1 white level) to scene-linear sRGB:
/// white balance, highlight clipping, camera → sRGB matrix, exposure.
///
/// Highlights: after white balance each channel is clipped at 1, the level at which the first channel of a
/// neutral saturates. Where a sensor channel clipped, all three end at 1 together, so blown highlights stay
/// white instead of turning magenta (green clips first under daylight, and its clipped value times the smaller
/// green gain would otherwise leave red and blue above it).
struct ColorStage: Sendable {
    let gains: (Float, Float, Float)
    let matrix: (Float, Float, Float, Float, Float, Float, Float, Float, Float)
    let exposure: Float

    /// - Parameter inputIsWhiteBalanced: the input already carries the white-balance gains (the demosaicer's
    ///   white-balanced output), so only clipping and the matrix remain.
    init(_ calibration: ColorCalibration, exposureAdjustment: Double, inputIsWhiteBalanced: Bool = false)
        throws(RawImageError)
    {
        let transform = try CameraColorTransform(calibration)
        let g = inputIsWhiteBalanced ? (1, 1, 1) : transform.whiteBalanceGains
        gains = (Float(g.0), Float(g.1), Float(g.2))
        let m = transform.cameraToSRGB.values.map { Float($0) }
        matrix = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let ev = calibration.baselineExposure + exposureAdjustment
        guard ev.isFinite, abs(ev) <= 32 else {
            throw RawImageError(.invalidSettings, "exposure adjustment of \(ev) EV")
        }
        exposure = Float(pow(2, ev))
    }

    /// Processes `count` interleaved pixels in place.
    @inline(__always)
    func apply(_ pixels: UnsafeMutablePointer<Float>, count: Int) {
        var p = pixels
        for _ in 0..<count {
            let r = min(p[0] * gains.0, 1)
            let g = min(p[1] * gains.1, 1)
            let b = min(p[2] * gains.2, 1)
            p[0] = (matrix.0 * r + matrix.1 * g + matrix.2 * b) * exposure
            p[1] = (matrix.3 * r + matrix.4 * g + matrix.5 * b) * exposure
            p[2] = (matrix.6 * r + matrix.7 * g + matrix.8 * b) * exposure
            p += 3
        }
    }
}

/// The output transfer: tone curve then the sRGB encoding, from scene-linear values to 8- or 16-bit codes,
/// through a table indexed by the square root of the value (fine steps in the shadows where the sRGB curve is
/// steep, 4097 entries, linearly interpolated: under 0.1 code of error at 16 bits).
struct OutputCurve: Sendable {
    private let table: [Float]
    private static let size = 4096

    init(toneCurve: ToneCurve) {
        table = (0...Self.size).map { index in
            let root = Double(index) / Double(Self.size)
            return Float(SRGBTransfer.encode(toneCurve(root * root)))
        }
    }

    /// The encoded value (0…1) of a linear value; negatives are black, values above 1 white.
    @inline(__always)
    func encode(_ linear: Float) -> Float {
        let clamped = min(max(linear, 0), 1)
        let position = clamped.squareRoot() * Float(Self.size)
        let index = min(Int(position), Self.size - 1)
        let fraction = position - Float(index)
        return table.withUnsafeBufferPointer { t in t[index] + (t[index + 1] - t[index]) * fraction }
    }

    @inline(__always)
    func encode8(_ linear: Float) -> UInt8 { UInt8(truncatingIfNeeded: Int(encode(linear) * 255 + 0.5)) }

    @inline(__always)
    func encode16(_ linear: Float) -> UInt16 { UInt16(truncatingIfNeeded: Int(encode(linear) * 65535 + 0.5)) }
}
