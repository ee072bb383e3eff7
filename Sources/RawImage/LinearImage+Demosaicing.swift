/// Building a LinearRaw image (rawcap's "ProRAW-like" fallback) from a raw frame.
extension LinearImage {
    /// How the linear samples are stored.
    public enum Encoding: String, Hashable, Sendable, CaseIterable {
        /// 16-bit linear values: black 0, the sensor's white level 65535.
        case linear16
        /// 12-bit codes through ``CompandingCurve/table`` as the LinearizationTable (black 0 and white 65535
        /// after the table): 25 % fewer bits, quantisation well under the sensor's noise.
        case companded12
    }

    /// Demosaics `frame` into a LinearRaw image: the whole active area interpolated at full size with
    /// ``DemosaicAlgorithm/highQuality``, in camera space (black subtracted per CFA position, scaled so the
    /// white level is 65535, clipped to 0…65535, no white balance: the DNG's AsShotNeutral carries it), with the
    /// frame's colour calibration (BaselineExposure included), metadata, default crop and pixel aspect ratio.
    ///
    /// - Parameters:
    ///   - encoding: 16-bit linear or 12-bit companded.
    ///   - toneCurve: written as the DNG ProfileToneCurve, or `nil` for none; the filmic curve by default, the
    ///     one rawcap's previews use.
    public init(
        demosaicing frame: RawFrame, encoding: Encoding = .linear16, toneCurve: ToneCurve? = .filmic
    ) throws(RawImageError) {
        let active = frame.activeArea
        let demosaicer = try Demosaicer(
            frame: frame, region: PixelRect(width: active.width, height: active.height), algorithm: .highQuality,
            outputsWhiteBalanced: false)
        let rowLength = active.width * 3
        let count = rowLength * active.height
        let companded = encoding == .companded12
        let samples = [UInt16](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = UnsafeSendablePointer(base)
            demosaicer.forEachRow { row, line in
                let out = output.base + row * rowLength
                for index in 0..<rowLength {
                    // Clamp in floating point first (Int(_:) traps outside its range; NaN fails `> 0`).
                    let scaled = line[index] * 65535 + 0.5
                    let value = scaled > 0 ? Int(min(scaled, 65535)) : 0
                    out[index] = companded ? CompandingCurve.code(for: value) : UInt16(value)
                }
            }
            initialized = count
        }
        try self.init(
            width: active.width, height: active.height, bitsPerSample: companded ? 12 : 16, samples: samples,
            blackLevels: [0, 0, 0], whiteLevels: [65535, 65535, 65535],
            linearizationTable: companded ? CompandingCurve.table : nil, defaultCrop: frame.defaultCrop,
            color: frame.color, metadata: frame.metadata, profileToneCurve: toneCurve?.dngPairs)
        pixelAspectRatio = frame.pixelAspectRatio
    }
}
