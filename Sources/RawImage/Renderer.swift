/// The rendering pipeline shared by ``RawFrame`` and ``LinearImage``: camera RGB → colour (``ColorStage``) →
/// area downscale in linear light → tone curve and sRGB encoding (``OutputCurve``) → orientation.
enum Renderer {
    /// Scene-linear sRGB (after exposure), interleaved.
    struct LinearSRGB {
        var pixels: [Float]
        var width: Int
        var height: Int
    }

    /// The output size for a `width × height` crop and an optional long side (never larger than the crop).
    static func outputSize(width: Int, height: Int, longSide: Int?) throws(RawImageError) -> (Int, Int) {
        guard let longSide else { return (width, height) }
        guard longSide > 0 else { throw RawImageError(.invalidSettings, "long side of \(longSide) pixels") }
        let long = max(width, height)
        guard longSide < long else { return (width, height) }
        if width >= height {
            return (longSide, max(1, Int((Double(height) * Double(longSide) / Double(width)).rounded())))
        }
        return (max(1, Int((Double(width) * Double(longSide) / Double(height)).rounded())), longSide)
    }

    /// Applies `stage` to every pixel of `pixels`, in parallel.
    static func applyColor(_ stage: ColorStage, to pixels: inout [Float], pixelCount: Int) {
        let rowsOfWork = max(1, pixelCount / 4096)
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let pointer = UnsafeSendablePointer(base)
            Parallel.forEachChunk(of: rowsOfWork, minimumChunk: 16) { chunks in
                let start = chunks.lowerBound * pixelCount / rowsOfWork
                let end = chunks.upperBound * pixelCount / rowsOfWork
                stage.apply(pointer.base + start * 3, count: end - start)
            }
        }
    }

    /// A raw frame's default crop rendered to scene-linear sRGB at the requested size.
    static func linear(_ frame: RawFrame, _ options: RenderOptions) throws(RawImageError) -> LinearSRGB {
        let crop = frame.defaultCrop
        let display = RenderOptions.displaySize(of: crop, pixelAspectRatio: frame.pixelAspectRatio)
        let (width, height) = try outputSize(width: display.width, height: display.height, longSide: options.longSide)
        let stage = try ColorStage(frame.color, exposureAdjustment: options.exposureAdjustment)
        let factor = min(crop.width / width, crop.height / height)
        let binnable =
            factor >= CFABinning.minimumFactor(for: frame.cfa) && frame.cfa.colors.allSatisfy { $0.rawValue <= 2 }
        if options.method != .quality && binnable {
            var binned = CFABinning.bin(frame, crop: crop, factor: factor)
            applyColor(stage, to: &binned.pixels, pixelCount: binned.width * binned.height)
            let pixels = AreaResampler.resample(
                binned.pixels, width: binned.width, height: binned.height, to: width, height)
            return LinearSRGB(pixels: pixels, width: width, height: height)
        }
        let demosaicer = try Demosaicer(
            frame: frame, region: crop, algorithm: .highQuality, outputsWhiteBalanced: true)
        let balancedStage = try ColorStage(
            frame.color, exposureAdjustment: options.exposureAdjustment, inputIsWhiteBalanced: true)
        let rowLength = crop.width * 3
        let count = rowLength * crop.height
        let full = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = UnsafeSendablePointer(base)
            demosaicer.forEachRow { row, line in
                let target = output.base + row * rowLength
                target.update(from: line, count: rowLength)
                balancedStage.apply(target, count: crop.width)
            }
            initialized = count
        }
        let pixels = AreaResampler.resample(full, width: crop.width, height: crop.height, to: width, height)
        return LinearSRGB(pixels: pixels, width: width, height: height)
    }

    /// A linear (demosaiced) image's default crop rendered to scene-linear sRGB at the requested size.
    static func linear(_ image: LinearImage, _ options: RenderOptions) throws(RawImageError) -> LinearSRGB {
        let crop = image.defaultCrop
        let display = RenderOptions.displaySize(of: crop, pixelAspectRatio: image.pixelAspectRatio)
        let (width, height) = try outputSize(width: display.width, height: display.height, longSide: options.longSide)
        let stage = try ColorStage(image.color, exposureAdjustment: options.exposureAdjustment)
        let table = image.linearizationTable.map { $0.map(Float.init) }
        let blacks = image.blackLevels.map { Float($0) }
        let scales = (0..<3).map { 1 / max(Float(image.whiteLevels[$0]) - blacks[$0], 1) }
        let rowLength = crop.width * 3
        let count = rowLength * crop.height
        var full = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = UnsafeSendablePointer(base)
            image.samples.withUnsafeBufferPointer { samples in
                guard let sampleBase = samples.baseAddress else { return }
                let input = UnsafeSendableReadPointer(sampleBase)
                Parallel.forEachChunk(of: crop.height, minimumChunk: 16) { rows in
                    for row in rows {
                        let line = input.base + ((crop.y + row) * image.width + crop.x) * 3
                        let out = output.base + row * rowLength
                        for index in 0..<rowLength {
                            let stored = Int(line[index])
                            let channel = index % 3
                            let linear: Float
                            if let table {
                                // Codes past the table's end repeat its last entry (DNG 1.7 §LinearizationTable).
                                linear = table[min(stored, table.count - 1)]
                            } else {
                                linear = Float(stored)
                            }
                            out[index] = (linear - blacks[channel]) * scales[channel]
                        }
                    }
                }
            }
            initialized = count
        }
        applyColor(stage, to: &full, pixelCount: crop.width * crop.height)
        let pixels = AreaResampler.resample(full, width: crop.width, height: crop.height, to: width, height)
        return LinearSRGB(pixels: pixels, width: width, height: height)
    }

    static func encode8(_ image: LinearSRGB, _ options: RenderOptions, orientation: Orientation) throws(RawImageError)
        -> RGBImage8
    {
        let bytes = OutputCurve(toneCurve: options.toneCurve).encode(image.pixels, as: UInt8.self) {
            $0.encode8($1, into: $2, count: $3)
        }
        let applied = options.appliesOrientation ? orientation : .normal
        let (width, height) = ImageOrientation.displaySize(width: image.width, height: image.height, applied)
        return try RGBImage8(
            width: width, height: height,
            pixels: ImageOrientation.apply(bytes, width: image.width, height: image.height, applied))
    }

    static func encode16(_ image: LinearSRGB, _ options: RenderOptions, orientation: Orientation) throws(RawImageError)
        -> RGBImage16
    {
        let samples = OutputCurve(toneCurve: options.toneCurve).encode(image.pixels, as: UInt16.self) {
            $0.encode16($1, into: $2, count: $3)
        }
        let applied = options.appliesOrientation ? orientation : .normal
        let (width, height) = ImageOrientation.displaySize(width: image.width, height: image.height, applied)
        return try RGBImage16(
            width: width, height: height,
            pixels: ImageOrientation.apply(samples, width: image.width, height: image.height, applied))
    }
}

extension RawFrame {
    /// Renders the frame's default crop as an 8-bit sRGB image: black subtraction per CFA position, white balance
    /// from AsShotNeutral with neutral highlight clipping, the DNG colour transform to linear sRGB
    /// (``CameraColorTransform``), BaselineExposure, area-filter downscaling in linear light, the tone curve,
    /// the sRGB transfer curve and, unless turned off, the orientation.
    ///
    /// - Throws: ``RawImageError`` when the colour tags are unusable, the pattern has colours other than red,
    ///   green and blue, or the options are out of range.
    public func renderRGB8(_ options: RenderOptions = RenderOptions()) throws(RawImageError) -> RGBImage8 {
        try Renderer.encode8(try Renderer.linear(self, options), options, orientation: metadata.orientation)
    }

    /// Renders like ``renderRGB8(_:)`` with 16 bits per sample (for 16-bit TIFF output).
    public func renderRGB16(_ options: RenderOptions = RenderOptions()) throws(RawImageError) -> RGBImage16 {
        try Renderer.encode16(try Renderer.linear(self, options), options, orientation: metadata.orientation)
    }
}

extension LinearImage {
    /// Renders the image's default crop as an 8-bit sRGB image, with the same colour pipeline as
    /// ``RawFrame/renderRGB8(_:)`` (the samples go through the LinearizationTable when there is one).
    public func renderRGB8(_ options: RenderOptions = RenderOptions()) throws(RawImageError) -> RGBImage8 {
        try Renderer.encode8(try Renderer.linear(self, options), options, orientation: metadata.orientation)
    }

    /// Renders like ``renderRGB8(_:)`` with 16 bits per sample.
    public func renderRGB16(_ options: RenderOptions = RenderOptions()) throws(RawImageError) -> RGBImage16 {
        try Renderer.encode16(try Renderer.linear(self, options), options, orientation: metadata.orientation)
    }
}
