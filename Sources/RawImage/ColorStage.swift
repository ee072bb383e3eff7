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
///
/// 8-bit output goes through a second, direct table of 65536 codes indexed by the linear value itself: one
/// load per sample, and its steps (1/65535 of linear light, at most 0.08 of an 8-bit code where the sRGB curve
/// is steepest) are far below what 8 bits resolve.
struct OutputCurve: Sendable {
    private let table: [Float]
    private let codes8: [UInt8]
    private static let size = 4096

    init(toneCurve: ToneCurve) {
        let table = (0...Self.size).map { index in
            let root = Double(index) / Double(Self.size)
            return Float(SRGBTransfer.encode(toneCurve(root * root)))
        }
        self.table = table
        codes8 = table.withUnsafeBufferPointer { buffer in
            guard let t = buffer.baseAddress else { return [] }
            return (0...65535).map { UInt8(truncatingIfNeeded: Int(Self.encode(Float($0) / 65535, t) * 255 + 0.5)) }
        }
    }

    /// The encoded value (0…1) of a linear value; negatives are black, values above 1 white.
    @inline(__always)
    private static func encode(_ linear: Float, _ table: UnsafePointer<Float>) -> Float {
        // `linear > 0` is false for NaN too, so a NaN can never reach Int(_:) below.
        let clamped = linear > 0 ? min(linear, 1) : 0
        let position = clamped.squareRoot() * Float(size)
        let index = min(Int(position), size - 1)
        let fraction = position - Float(index)
        return table[index] + (table[index + 1] - table[index]) * fraction
    }

    /// Encodes `count` linear values to 8-bit codes.
    func encode8(_ source: UnsafePointer<Float>, into target: UnsafeMutablePointer<UInt8>, count: Int) {
        codes8.withUnsafeBufferPointer { buffer in
            guard let codes = buffer.baseAddress, buffer.count == 65536 else { return }
            for index in 0..<count {
                let value = source[index] * 65535 + 0.5
                // `value > 0` is false for NaN as well.
                target[index] = codes[value > 0 ? Int(min(value, 65535)) : 0]
            }
        }
    }

    /// Encodes `count` linear values to 16-bit codes.
    func encode16(_ source: UnsafePointer<Float>, into target: UnsafeMutablePointer<UInt16>, count: Int) {
        table.withUnsafeBufferPointer { buffer in
            guard let t = buffer.baseAddress else { return }
            for index in 0..<count {
                target[index] = UInt16(truncatingIfNeeded: Int(Self.encode(source[index], t) * 65535 + 0.5))
            }
        }
    }

    /// Encodes a whole buffer on all cores.
    func encode<Code>(
        _ values: [Float], as _: Code.Type,
        _ body: @Sendable (OutputCurve, UnsafePointer<Float>, UnsafeMutablePointer<Code>, Int) -> Void
    ) -> [Code] {
        let count = values.count
        let curve = self
        return [Code](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = UnsafeSendablePointer(base)
            values.withUnsafeBufferPointer { input in
                guard let inputBase = input.baseAddress else { return }
                let source = UnsafeSendableReadPointer(inputBase)
                let blocks = max(1, count / 65536)
                Parallel.forEachChunk(of: blocks, minimumChunk: 1) { range in
                    let start = range.lowerBound * count / blocks
                    let end = range.upperBound * count / blocks
                    body(curve, source.base + start, output.base + start, end - start)
                }
            }
            initialized = count
        }
    }
}
