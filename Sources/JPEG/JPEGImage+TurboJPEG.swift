import CTurboJPEG
import RawImage
import WireFormat

/// Baseline JPEG encoding and decoding through libjpeg-turbo's TurboJPEG API (Debian's libturbojpeg 2.1):
/// previews rawcap renders, and cameras' own JPEGs. Every call makes its own TurboJPEG handle, so all of it is
/// safe to use from any number of threads.
extension JPEGImage {
    /// How much colour resolution the encoder keeps.
    public enum ChromaSubsampling: String, Hashable, Sendable, CaseIterable {
        /// 4:2:0: chroma at half resolution both ways (TJSAMP_420). What cameras write, about 40 % smaller
        /// than 4:4:4 at the same quality; rawcap's default for previews.
        case yuv420
        /// 4:4:4: full-resolution chroma (TJSAMP_444), for images with fine coloured detail.
        case yuv444

        var turboJPEGValue: Int32 {
            switch self {
            case .yuv420: Int32(TJSAMP_420.rawValue)
            case .yuv444: Int32(TJSAMP_444.rawValue)
            }
        }
    }

    /// Compresses an 8-bit RGB image to a baseline JPEG (`tjCompress2`, accurate integer DCT, YCbCr).
    ///
    /// - Parameters:
    ///   - quality: 1…100, libjpeg's scale; 85–90 is visually lossless for previews.
    ///   - subsampling: chroma resolution; 4:2:0 by default.
    /// - Throws: ``JPEGError`` for a quality outside 1…100 or a libjpeg-turbo failure.
    public init(encoding image: RGBImage8, quality: Int = 90, subsampling: ChromaSubsampling = .yuv420)
        throws(JPEGError)
    {
        guard (1...100).contains(quality) else {
            throw JPEGError(.invalidArgument, "quality \(quality) is outside 1…100")
        }
        guard let width = Int32(exactly: image.width), let height = Int32(exactly: image.height) else {
            throw JPEGError(.tooLarge, "\(image.width)×\(image.height)")
        }
        guard let handle = tjInitCompress() else { throw JPEGError(.outOfMemory, "tjInitCompress") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        defer { if let buffer { tjFree(buffer) } }
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, width, 0, height, Int32(TJPF_RGB.rawValue), &buffer, &size,
                subsampling.turboJPEGValue, Int32(quality), 0)
        }
        guard status == 0, let buffer, let count = Int(exactly: size), count > 0 else {
            throw JPEGError(.encodingFailed, Self.message(handle))
        }
        self.init(
            bytes: Array(UnsafeBufferPointer(start: buffer, count: count)), width: image.width, height: image.height)
    }

    /// Wraps JPEG bytes after reading their size from the frame header; nothing is decoded.
    ///
    /// - Throws: ``JPEGError`` when the header cannot be parsed or the size is beyond the limits.
    public init(validating bytes: [UInt8]) throws(JPEGError) {
        let header = try Self.header(of: bytes)
        self.init(bytes: bytes, width: header.width, height: header.height)
    }

    /// The pixel size a JPEG's frame header declares (`tjDecompressHeader3`), without decoding any pixels.
    public static func size(of bytes: [UInt8]) throws(JPEGError) -> (width: Int, height: Int) {
        let header = try header(of: bytes)
        return (header.width, header.height)
    }

    /// Decompresses to 8-bit RGB (`tjDecompress2`). Grey JPEGs come back as grey RGB; CMYK and YCCK ones are
    /// rejected.
    ///
    /// - Parameter minimumLongSide: when given, decode at the smallest of libjpeg-turbo's DCT scaling factors
    ///   (1/8, 1/4, 3/8, 1/2, … 1) whose result is still at least this long on its longer side: much faster than
    ///   decoding at full size and shrinking afterwards, e.g. for thumbnails of a camera's 24-megapixel JPEG.
    /// - Throws: ``JPEGError`` for unreadable, unsupported, oversized or corrupt data. libjpeg-turbo's warnings
    ///   (such as extraneous bytes before a marker, which some cameras write) do not fail the decode.
    public func decoded(minimumLongSide: Int? = nil) throws(JPEGError) -> RGBImage8 {
        let header = try Self.header(of: bytes)
        var scaled = (width: header.width, height: header.height)
        if let minimumLongSide {
            guard minimumLongSide > 0 else { throw JPEGError(.invalidArgument, "minimum long side \(minimumLongSide)") }
            scaled = Self.scaledSize(header.width, header.height, minimumLongSide: minimumLongSide)
        }
        guard let handle = tjInitDecompress() else { throw JPEGError(.outOfMemory, "tjInitDecompress") }
        defer { tjDestroy(handle) }
        let count = scaled.width * scaled.height * 3
        var failure: JPEGError?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let status = bytes.withUnsafeBufferPointer { jpeg in
                tjDecompress2(
                    handle, jpeg.baseAddress, UInt(jpeg.count), buffer.baseAddress, Int32(scaled.width), 0,
                    Int32(scaled.height), Int32(TJPF_RGB.rawValue), Int32(TJFLAG_LIMITSCANS))
            }
            // A warning leaves a complete image; only fatal errors fail.
            if status != 0 && tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) {
                failure = JPEGError(.decodingFailed, Self.message(handle))
                buffer.initialize(repeating: 0)
            }
            initialized = count
        }
        if let failure { throw failure }
        do {
            return try RGBImage8(width: scaled.width, height: scaled.height, pixels: pixels)
        } catch {
            throw JPEGError(.tooLarge, "\(error)")
        }
    }

    // MARK: Internals

    private struct Header {
        let width: Int
        let height: Int
    }

    private static func header(of bytes: [UInt8]) throws(JPEGError) -> Header {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw JPEGError(.invalidData, "no JPEG start-of-image marker")
        }
        guard let handle = tjInitDecompress() else { throw JPEGError(.outOfMemory, "tjInitDecompress") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { jpeg in
            tjDecompressHeader3(handle, jpeg.baseAddress, UInt(jpeg.count), &width, &height, &subsampling, &colorspace)
        }
        guard status == 0 else { throw JPEGError(.invalidData, message(handle)) }
        guard width > 0, height > 0 else { throw JPEGError(.invalidData, "\(width)×\(height) frame") }
        let (pixelCount, overflow) = Int(width).multipliedReportingOverflow(by: Int(height))
        guard !overflow, pixelCount <= WireLimits.maxImagePixels, Int(width) <= RawFrame.maxDimension,
            Int(height) <= RawFrame.maxDimension
        else {
            throw JPEGError(.tooLarge, "\(width)×\(height) is above \(WireLimits.maxImagePixels) pixels")
        }
        guard colorspace != Int32(TJCS_CMYK.rawValue), colorspace != Int32(TJCS_YCCK.rawValue) else {
            throw JPEGError(.unsupported, "CMYK/YCCK JPEG")
        }
        return Header(width: Int(width), height: Int(height))
    }

    /// The smallest libjpeg-turbo scaling of `width × height` whose long side is at least `minimumLongSide`
    /// (or 1:1). TurboJPEG's TJSCALED rounds up: `(size · num + denom − 1) / denom`.
    private static func scaledSize(_ width: Int, _ height: Int, minimumLongSide: Int) -> (width: Int, height: Int) {
        var count: Int32 = 0
        var best = (width: width, height: height)
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return best }
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) {
            let num = Int(factor.num)
            let denom = Int(factor.denom)
            guard num > 0, denom > 0, num <= denom else { continue }
            let scaledWidth = (width * num + denom - 1) / denom
            let scaledHeight = (height * num + denom - 1) / denom
            if max(scaledWidth, scaledHeight) >= minimumLongSide
                && scaledWidth * scaledHeight < best.width * best.height
            {
                best = (scaledWidth, scaledHeight)
            }
        }
        return best
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: text)
    }
}
