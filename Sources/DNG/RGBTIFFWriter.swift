import CLibTIFF
import OutputFiles
import RawImage
import TIFFVocabulary

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a rendered RGB image as a baseline RGB TIFF (TIFF 6.0 §6: 8 or 16 bits per sample, chunky, strips), with
/// TIFF Make/Model/Software/DateTime/Orientation/resolution and an EXIF IFD with the exposure basics, through libtiff
/// into an ``OutputFile`` (temporary file, `fsync`, published without replacing anything).
///
/// The tags are planned first (``plan(width:height:metadata:options:)``: pure, and where hostile sizes are refused
/// before any pixel is touched), then libtiff writes them and encodes the strips: uncompressed, or Deflate
/// (Compression 8) with the horizontal predictor (Predictor 2), which every TIFF reader supports. Afterwards the same
/// read-back pass as for DNGs (`DirectoryFixup`) checks every entry against the plan and rewrites the rationals
/// (exposure time, f-number, resolution) as exact fractions.
public enum RGBTIFFWriter {
    /// How the TIFF is stored.
    public struct Options: Sendable, Hashable {
        /// Sample storage.
        public enum Compression: String, Sendable, Hashable, CaseIterable {
            /// Compression 1: the samples as they are.
            case none
            /// Compression 8 (Adobe Deflate, zlib) with Predictor 2 (horizontal differencing).
            case deflate
        }

        /// 8 or 16 bits per sample. 8-bit output rounds each 16-bit sample to the nearest of 256 levels.
        public var bitsPerSample: Int
        /// Sample storage.
        public var compression: Compression
        /// TIFF Software; `nil` leaves it out.
        public var software: String?

        /// Creates options; the defaults are 16-bit uncompressed.
        public init(bitsPerSample: Int = 16, compression: Compression = .none, software: String? = "rawcap") {
            self.bitsPerSample = bitsPerSample
            self.compression = compression
            self.software = software
        }
    }

    /// What a write produced.
    public struct Result: Sendable, Hashable {
        /// The file's size in bytes.
        public let byteCount: Int
        /// Where the file is (another name than asked for when that was taken meanwhile and `whenTaken` allowed it).
        public internal(set) var path: String
        /// Warnings libtiff printed while writing (none are expected).
        public let warnings: [String]
    }

    /// Rows per strip: about 64 KiB of uncompressed samples per strip, so Deflate works on reasonable blocks and a
    /// reader can decode a region without inflating the whole image.
    static func rowsPerStrip(width: Int, bytesPerSample: Int) -> Int {
        max(1, min(65_536 / max(1, width * 3 * bytesPerSample), 1 << 16))
    }

    /// The TIFF tags for an image of `width × height` (the strip offsets and byte counts are libtiff's).
    ///
    /// `metadata.orientation` is written as the TIFF Orientation: pass `.normal` for a rendering that already applied
    /// the camera's orientation (``RawFrame/renderRGB16(_:)`` does, unless told otherwise).
    ///
    /// - Throws: ``DNGError/Code/doesNotFit`` for a size outside 1…65535 per side or pixel data beyond a classic
    ///   TIFF's 4 GiB, ``DNGError/Code/unsupportedBitDepth`` for bit depths other than 8 and 16,
    ///   ``DNGError/Code/invalidInput`` for metadata a TIFF cannot hold (such as ISO 0).
    public static func plan(
        width: Int, height: Int, metadata: CaptureMetadata, options: Options = Options()
    ) throws(DNGError) -> DNGPlan {
        guard options.bitsPerSample == 8 || options.bitsPerSample == 16 else {
            throw DNGError(
                .unsupportedBitDepth, "an RGB TIFF has 8 or 16 bits per sample, not \(options.bitsPerSample)")
        }
        guard (1...RawFrame.maxDimension).contains(width), (1...RawFrame.maxDimension).contains(height) else {
            throw DNGError(.doesNotFit, "\(width)×\(height) is outside 1…\(RawFrame.maxDimension) per side")
        }
        let bytesPerSample = options.bitsPerSample / 8
        // width, height ≤ 65535, so this product fits any 64-bit Int; checkFits bounds it to 32-bit offsets.
        try DNGPlan.checkFits(imageByteCount: width * height * 3 * bytesPerSample)

        let bits = UInt16(options.bitsPerSample)
        var entries: [DNGEntry] = [
            try DNGEntry(.newSubfileType, .long(0)),
            try DNGEntry(.imageWidth, .long(UInt32(width))),
            try DNGEntry(.imageLength, .long(UInt32(height))),
            try DNGEntry(.bitsPerSample, .shorts([bits, bits, bits])),
            try DNGEntry(.compression, .short(options.compression == .deflate ? 8 : 1)),
            try DNGEntry(.photometricInterpretation, .short(2)),
            try DNGEntry(.orientation, .short(metadata.orientation.rawValue)),
            try DNGEntry(.samplesPerPixel, .short(3)),
            try DNGEntry(
                .rowsPerStrip, .long(UInt32(min(height, rowsPerStrip(width: width, bytesPerSample: bytesPerSample))))),
            try DNGEntry(.planarConfiguration, .short(1)),
            // Baseline TIFF requires a resolution; 72 dpi is the customary "unknown" (EXIF 2.32 §4.6.5).
            try DNGEntry(.xResolution, .rational(72)),
            try DNGEntry(.yResolution, .rational(72)),
            try DNGEntry(.resolutionUnit, .short(2)),
        ]
        if options.compression == .deflate { entries.append(try DNGEntry(.predictor, .short(2))) }
        if let make = DNGEncoder.ascii(metadata.make) { entries.append(try DNGEntry(.make, .ascii(make))) }
        if let model = DNGEncoder.ascii(metadata.model) { entries.append(try DNGEntry(.model, .ascii(model))) }
        if let software = DNGEncoder.ascii(options.software) {
            entries.append(try DNGEntry(.software, .ascii(software)))
        }
        if let time = metadata.captureTime { entries.append(try DNGEntry(.dateTime, .ascii(time.exifDateTime))) }
        // EXIF 2.32 §4.6.5 requires FlashpixVersion and ColorSpace in a TIFF's EXIF IFD (a DNG's raw data has no
        // colour space, so the DNG encoder leaves them out); the rendering is sRGB.
        let dngExif = try DNGEncoder(options: DNGOptions()).exifDirectory(metadata)
        let exif = try DNGDirectory.EXIFDirectory(
            entries: dngExif.entries + [
                try DNGEntry(.flashpixVersion, .undefined(Array("0100".utf8))),
                try DNGEntry(.colorSpace, .short(1)),
            ])
        return try DNGPlan(root: DNGDirectory(entries: entries, exif: exif))
    }

    /// Writes `image` as a new TIFF at `path`; on any error nothing is left behind.
    ///
    /// - Throws: ``DNGError``: the errors of ``plan(width:height:metadata:options:)``, of ``OutputFile`` (an existing
    ///   file, a missing or read-only folder, a full disk), or ``DNGError/Code/libtiff`` with libtiff's message.
    @discardableResult
    public static func write(
        _ image: RGBImage16, metadata: CaptureMetadata, options: Options = Options(), to path: String,
        whenTaken: OutputFile.WhenTaken = .refuse
    ) throws(DNGError) -> Result {
        let plan = try plan(width: image.width, height: image.height, metadata: metadata, options: options)
        let file = try OutputFile.creatingDNG(at: path, whenTaken: whenTaken)
        var result = try write(image, plan: plan, options: options, fileDescriptor: file.fileDescriptor, name: path)
        try file.commitDNG()
        result.path = file.path
        return result
    }

    private static func write(
        _ image: RGBImage16, plan: DNGPlan, options: Options, fileDescriptor: Int32, name: String
    ) throws(DNGError) -> Result {
        TIFFFieldRegistry.install()
        let context = TIFFFileContext(fileDescriptor: fileDescriptor, name: name)
        let handle = Unmanaged.passRetained(context)
        defer { handle.release() }
        let userData = handle.toOpaque()

        guard let openOptions = TIFFOpenOptionsAlloc() else { throw DNGError(.libtiff, path: name, "out of memory") }
        defer { TIFFOpenOptionsFree(openOptions) }
        TIFFOpenOptionsSetErrorHandlerExtR(openOptions, TIFFFileContext.tiffErrorHandler, userData)
        TIFFOpenOptionsSetWarningHandlerExtR(openOptions, TIFFFileContext.tiffWarningHandler, userData)
        guard
            let tif = TIFFClientOpenExt(
                name, "wl", userData, TIFFFileContext.tiffRead, TIFFFileContext.tiffWrite, TIFFFileContext.tiffSeek,
                TIFFFileContext.tiffClose, TIFFFileContext.tiffSize, TIFFFileContext.tiffMap, TIFFFileContext.tiffUnmap,
                openOptions)
        else { throw context.failure("TIFFClientOpenExt") }

        do throws(DNGError) {
            let adapter = LibTIFFAdapter(tif: tif, context: context)
            var exifOffset: UInt64 = 0
            if let exif = plan.root.exif {
                guard TIFFCreateEXIFDirectory(tif) == 0 else { throw context.failure("TIFFCreateEXIFDirectory") }
                for entry in exif.entries { try adapter.set(entry) }
                guard TIFFWriteCustomDirectory(tif, &exifOffset) == 1 else {
                    throw context.failure("TIFFWriteCustomDirectory")
                }
                TIFFFreeDirectory(tif)
                _ = TIFFCreateDirectory(tif)
            }
            for entry in plan.root.entries { try adapter.set(entry) }
            if plan.root.exif != nil {
                guard rc_tiff_set_u64(tif, UInt32(TIFFTAG_EXIFIFD), exifOffset) == 1 else {
                    throw context.failure("TIFFSetField(ExifIFD)")
                }
            }
            try writeStrips(image, plan: plan, options: options, tif: tif, context: context)
            guard TIFFWriteDirectory(tif) == 1 else { throw context.failure("TIFFWriteDirectory") }
            guard TIFFFlush(tif) == 1 else { throw context.failure("TIFFFlush") }
        } catch {
            TIFFCleanup(tif)
            throw error
        }
        TIFFClose(tif)
        if let ioError = context.ioError { throw ioError }
        try DirectoryFixup(fileDescriptor: fileDescriptor, name: name).apply(to: plan)
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0 else { throw DNGError.system("fstat", path: name, errno: errno) }
        return Result(byteCount: Int(info.st_size), path: name, warnings: context.warnings)
    }

    /// Hands libtiff one strip at a time (`TIFFWriteEncodedStrip`), which compresses it when Deflate is chosen.
    private static func writeStrips(
        _ image: RGBImage16, plan: DNGPlan, options: Options, tif: OpaquePointer, context: TIFFFileContext
    ) throws(DNGError) {
        let rows = plan.root.integer(.rowsPerStrip) ?? image.height
        let samplesPerRow = image.width * 3
        var strip = 0
        var firstRow = 0
        while firstRow < image.height {
            let rowCount = min(rows, image.height - firstRow)
            let range = firstRow * samplesPerRow..<(firstRow + rowCount) * samplesPerRow
            let written: tmsize_t
            if options.bitsPerSample == 8 {
                // Round to the nearest of 256 levels: v × 255 / 65535, exactly (65535 = 255 × 257).
                var bytes = image.pixels[range].map { UInt8((UInt32($0) + 128) / 257) }
                written = bytes.withUnsafeMutableBytes { buffer in
                    TIFFWriteEncodedStrip(tif, UInt32(strip), buffer.baseAddress, tmsize_t(buffer.count))
                }
            } else {
                // libtiff byte-swaps native samples itself when the file's order differs; the file is "l" and so is
                // every host Swift runs on here, so the samples go out as they are. A copy, because libtiff's
                // predictor differences the buffer in place.
                var samples = Array(image.pixels[range])
                written = samples.withUnsafeMutableBytes { buffer in
                    TIFFWriteEncodedStrip(tif, UInt32(strip), buffer.baseAddress, tmsize_t(buffer.count))
                }
            }
            guard written >= 0 else { throw context.failure("TIFFWriteEncodedStrip \(strip)") }
            strip += 1
            firstRow += rowCount
        }
    }
}
