import CTurboJPEG
import DNG
import JPEG
import RawImage

/// Synthetic inputs for the DNG tests: frames with every sample value class (0, the maximum, noise, gradients),
/// complete metadata, and previews built by hand.
enum TestImages {
    /// Deterministic pseudo-random samples in `0...maximum` (a 64-bit LCG), with the extremes placed at fixed spots so
    /// every round trip sees 0 and the maximum.
    static func samples(count: Int, maximum: Int, seed: UInt64) -> [UInt16] {
        var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        var values = [UInt16](repeating: 0, count: count)
        for index in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Mix a smooth ramp with noise, like a real scene: the predictor sees both small and large differences.
            let noise = Int(truncatingIfNeeded: state >> 40) % (maximum + 1)
            let ramp = (index * 37) % (maximum + 1)
            values[index] = UInt16(index % 7 == 0 ? noise : (ramp + noise / 16) % (maximum + 1))
        }
        if count > 2 {
            values[0] = UInt16(maximum)
            values[count - 1] = 0
            values[count / 2] = UInt16(maximum)
        }
        return values
    }

    /// Everything CaptureMetadata can say, so that every EXIF and DNG tag is written.
    static func metadata(orientation: Orientation = .normal) throws -> CaptureMetadata {
        CaptureMetadata(
            make: "Acme", model: "Test Body Mk II", uniqueCameraModel: "Acme Test Body Mk II", serialNumber: "SN0042",
            lensModel: "Acme 35mm F1.8", exposureTime: Rational(1, 250), fNumber: 5.6, iso: 800,
            exposureBias: Rational(-2, 3), focalLength: 35,
            captureTime: try CaptureTime(
                year: 2025, month: 3, day: 14, hour: 15, minute: 9, second: 26, subSeconds: "535",
                utcOffsetMinutes: -300),
            orientation: orientation)
    }

    /// A colour calibration with both illuminants and forward matrices (values in the range of a real sensor).
    static func calibration() throws -> ColorCalibration {
        try ColorCalibration(
            colorMatrix1: Matrix3([0.6722, -0.0635, -0.0963, -0.4287, 1.2460, 0.2028, -0.0908, 0.2162, 0.5668]),
            illuminant1: .standardA,
            colorMatrix2: Matrix3([0.6171, -0.0799, -0.0682, -0.4596, 1.2475, 0.2291, -0.0960, 0.1757, 0.6070]),
            illuminant2: .d65,
            forwardMatrix1: Matrix3([0.6247, 0.2151, 0.1245, 0.2559, 0.8384, -0.0943, 0.0496, -0.2378, 1.0133]),
            forwardMatrix2: Matrix3([0.6390, 0.1992, 0.1260, 0.2662, 0.8556, -0.1218, 0.0339, -0.1685, 0.9597]),
            asShotNeutral: [0.4711, 1, 0.6525], baselineExposure: -0.25)
    }

    /// A frame of the given pattern and depth with a masked border when it is large enough for one.
    static func frame(
        width: Int, height: Int, bitsPerSample: Int, cfa: CFAPattern, seed: UInt64 = 1,
        orientation: Orientation = .normal
    ) throws -> RawFrame {
        let maximum = (1 << bitsPerSample) - 1
        let black = Double(maximum / 16)
        let active =
            width >= 40 && height >= 40
            ? PixelRect(x: 4, y: 2, width: width - 6, height: height - 4) : PixelRect(width: width, height: height)
        return try RawFrame(
            width: width, height: height, bitsPerSample: bitsPerSample,
            samples: samples(count: width * height, maximum: maximum, seed: seed), cfa: cfa,
            blackLevels: (0..<(cfa.width * cfa.height)).map { black + Double($0 % 3) }, whiteLevel: maximum,
            activeArea: active, color: try calibration(), metadata: try metadata(orientation: orientation))
    }

    /// A grey thumbnail about `longSide` pixels on the long side, averaged from the frame's samples.
    static func thumbnail(of frame: RawFrame, longSide: Int = 32) throws -> RGBImage8 {
        let scale = max(1, max(frame.width, frame.height) / longSide)
        let width = max(1, frame.width / scale)
        let height = max(1, frame.height / scale)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let shift = frame.bitsPerSample - 8
        for row in 0..<height {
            for column in 0..<width {
                let value = UInt8(min(255, frame.sample(row: row * scale, column: column * scale) >> shift))
                for channel in 0..<3 { pixels[(row * width + column) * 3 + channel] = value }
            }
        }
        return try RGBImage8(width: width, height: height, pixels: pixels)
    }

    /// A real baseline JPEG of `image`, encoded with libjpeg-turbo's `tjCompress2` (4:2:0, quality 85).
    static func jpeg(of image: RGBImage8) throws -> JPEGImage {
        guard let handle = tjInitCompress() else { throw TestFailure("tjInitCompress failed") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGB.rawValue),
                &output, &size, Int32(TJSAMP_420.rawValue), 85, 0)
        }
        defer { tjFree(output) }
        guard status == 0, let output else { throw TestFailure("tjCompress2 failed") }
        return JPEGImage(
            bytes: Array(UnsafeBufferPointer(start: output, count: Int(size))), width: image.width,
            height: image.height)
    }

    /// Thumbnail plus a JPEG preview of a larger grey rendering.
    static func previews(of frame: RawFrame, withJPEG: Bool = true) throws -> DNGPreviews {
        let thumbnail = try thumbnail(of: frame)
        return DNGPreviews(
            thumbnail: thumbnail, preview: withJPEG ? try jpeg(of: try self.thumbnail(of: frame, longSide: 96)) : nil)
    }
}

/// A test setup step failed (not an assertion about the code under test).
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
