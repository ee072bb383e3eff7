import CLibRaw
import RawImage
import WireFormat

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads vendor raw files (NEF, CR2, CR3, ARW, RAF, ORF, RW2, PEF, …) through LibRaw's C API into a
/// ``RawImage/RawFrame``: the whole sensor readout as stored, before any of LibRaw's processing.
///
/// | RawFrame | from LibRaw (`libraw_data_t`) |
/// |---|---|
/// | samples | `rawdata.raw_image`, `raw_width × raw_height`, rows `sizes.raw_pitch` bytes apart |
/// | activeArea | `sizes.left_margin`, `top_margin`, `width`, `height` (the sensor's masked borders stay outside) |
/// | defaultCrop | `sizes.raw_inset_crop` when the camera states one inside the active area, else RawFrame's margin |
/// | pixelAspectRatio | `sizes.pixel_aspect` |
/// | cfa | `libraw_COLOR` over the `filters` period (Bayer) or the 6×6 `xtrans` pattern, named through `idata.cdesc` |
/// | blackLevels | `color.black` + `color.cblack[colour]` + the `cblack[6…]` pattern of `cblack[4] × cblack[5]` |
/// | whiteLevel | `color.maximum`, lowered to the largest `color.linear_max` when the maker states one |
/// | colorMatrix1 | `color.cam_xyz` (XYZ → camera, D65) normalised so that D50 white maps to a maximum of 1 |
/// | asShotNeutral | `1 / color.cam_mul`, largest entry 1 (else `pre_mul`) |
/// | metadata | `idata` make/model/normalized names, `shootinginfo.BodySerial`, `lens.Lens`, `other.*`, `sizes.flip` |
///
/// Non-CFA sensors (Foveon, already-linear data, LibRaw's 4-colour and Leaf layouts) are refused with
/// ``DecodeError/Code-swift.struct/unsupported``. LibRaw's data-error messages are collected, not printed.
public enum LibRawDecoder {
    /// The memory LibRaw may allocate for one raw image (`max_raw_memory_mb`): 1 GiB, twice what the largest
    /// accepted image (``WireFormat/WireLimits/maxImagePixels`` 16-bit samples) needs.
    public static let maxRawMemoryMegabytes: UInt32 = 1024

    /// The version of the LibRaw library linked in, such as `0.20.2-Release`.
    public static var libraryVersion: String { String(cString: libraw_version()) }

    /// Decodes the raw image in `bytes`.
    ///
    /// - Throws: ``DecodeError`` carrying LibRaw's status (``DecodeError/libRawStatus``) when LibRaw fails,
    ///   `.tooLarge` past ``WireFormat/WireLimits``, `.unsupported` for non-CFA sensors.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> DecodedRaw {
        var decoded = try withLibRaw(bytes) { (session) throws(DecodeError) in try session.decode() }
        // The container is named for people (`Nikon NEF`); LibRaw's decoder goes with the storage.
        if case .vendor(let decoder) = decoded.info.container {
            let make: String? =
                switch decoded.image {
                case .cfa(let frame): frame.metadata.make
                default: nil
                }
            decoded.info.container = .vendor(vendorFormatName(bytes, make: make))
            decoded.info.storage.layout += ", LibRaw \(decoder)"
        }
        return decoded
    }

    /// The maker's format a vendor raw file is, for people: `Canon CR2`, `Fujifilm RAF`, `Nikon NEF`, from the
    /// file's signature (CR2's `CR` after the TIFF header, CR3's `crx ` brand, RAF's `FUJIFILM`, ORF's `IIRO`/
    /// `IIRS`/`MMOR`, RW2's `IIU`, CRW's `HEAPCCDR`) or, for plain TIFF-based formats, from the make LibRaw read;
    /// `raw` with the make when neither says.
    static func vendorFormatName(_ bytes: ArraySlice<UInt8>, make: String?) -> String {
        let head = Array(bytes.prefix(16))
        func ascii(_ range: Range<Int>) -> String {
            guard head.count >= range.upperBound else { return "" }
            return String(decoding: head[range], as: UTF8.self)
        }
        let isTIFF = ascii(0..<4) == "II*\u{0}" || ascii(0..<4) == "MM\u{0}*"
        // A DNG or TIFF/EP rawcap's own reader passed to LibRaw (data it does not decode) keeps its name.
        if isTIFF {
            switch RawDecoder.detectFormat(bytes) {
            case .dng: return "DNG"
            case .tiffEP: return "TIFF/EP"
            default: break
            }
        }
        if ascii(0..<8) == "FUJIFILM" { return "Fujifilm RAF" }
        if ascii(4..<8) == "ftyp" && ascii(8..<12) == "crx " { return "Canon CR3" }
        if ascii(6..<14) == "HEAPCCDR" { return "Canon CRW" }
        if isTIFF && ascii(8..<10) == "CR" { return "Canon CR2" }
        if ["IIRO", "IIRS", "MMOR"].contains(ascii(0..<4)) { return "Olympus ORF" }
        if ascii(0..<4) == "IIU\u{0}" { return "Panasonic RW2" }
        let maker = (make ?? "").split(separator: " ").first.map(String.init) ?? ""
        switch maker.lowercased() {
        case "nikon": return "Nikon NEF"
        case "sony": return "Sony ARW"
        case "pentax", "ricoh": return "Pentax PEF"
        case "samsung": return "Samsung SRW"
        case "": return "vendor raw"
        default: return "\(maker) raw"
        }
    }

    /// The camera's embedded preview (LibRaw's thumbnail), when it is a JPEG or an 8-bit RGB bitmap.
    public static func preview(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> EmbeddedPreview? {
        try withLibRaw(bytes) { (session) throws(DecodeError) in try session.thumbnail() }
    }

    /// What LibRaw says about the file once it has opened it, without decoding the samples (``Session/identify()``):
    /// the frame's description, whose `decoder` is LibRaw's loader.
    static func identify(_ bytes: UnsafeRawBufferPointer) throws(DecodeError) -> DecoderWire.Frame {
        try withLibRaw(bytes) { (session) throws(DecodeError) in try session.identify() }
    }

    private static func withLibRaw<R>(
        _ bytes: ArraySlice<UInt8>, _ body: (Session) throws(DecodeError) -> R
    ) throws(DecodeError) -> R {
        let result: Result<R, DecodeError> = bytes.withUnsafeBytes { raw in
            do throws(DecodeError) {
                return .success(try withLibRaw(raw, body))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func withLibRaw<R>(
        _ raw: UnsafeRawBufferPointer, _ body: (Session) throws(DecodeError) -> R
    ) throws(DecodeError) -> R {
        guard let base = raw.baseAddress, raw.count > 0 else { throw DecodeError(.truncated, at: 0, "empty file") }
        guard let handle = libraw_init(0) else { throw DecodeError(.tooLarge, "libraw_init failed") }
        defer { libraw_close(handle) }
        let session = Session(handle: handle)
        try session.open(base, count: raw.count)
        return try body(session)
    }

    /// One LibRaw handle over one buffer, with the messages LibRaw reported.
    fileprivate final class Session {
        let handle: UnsafeMutablePointer<libraw_data_t>
        var messages: [String] = []

        init(handle: UnsafeMutablePointer<libraw_data_t>) {
            self.handle = handle
        }

        /// Keeps a LibRaw message; LibRaw can report one per damaged block, so only the first few are kept.
        func record(_ message: String) {
            if messages.count < 16 { messages.append(message) }
        }

        /// Opens the buffer (LibRaw keeps a pointer to it until `libraw_close`) and checks the size it declares.
        func open(_ base: UnsafeRawPointer, count: Int) throws(DecodeError) {
            let context = Unmanaged.passUnretained(self).toOpaque()
            libraw_set_dataerror_handler(handle, dataErrorHandler, context)
            libraw_set_memerror_handler(handle, memoryErrorHandler, context)
            handle.pointee.params.max_raw_memory_mb = maxRawMemoryMegabytes
            try check(libraw_open_buffer(handle, UnsafeMutableRawPointer(mutating: base), count), "libraw_open_buffer")
            let sizes = handle.pointee.sizes
            let (rawWidth, rawHeight) = (Int(sizes.raw_width), Int(sizes.raw_height))
            guard rawWidth <= WireLimits.maxImageDimension, rawHeight <= WireLimits.maxImageDimension,
                rawWidth * rawHeight <= WireLimits.maxImagePixels
            else {
                throw DecodeError(.tooLarge, "LibRaw reports a \(rawWidth)×\(rawHeight) sensor")
            }
        }

        func check(_ status: Int32, _ call: String) throws(DecodeError) {
            guard status != LIBRAW_SUCCESS.rawValue else { return }
            let libRawStatus = LibRawStatus(rawValue: status)
            var detail = "\(call): \(String(cString: libraw_strerror(status)))"
            if !messages.isEmpty { detail += " (\(messages.joined(separator: "; ")))" }
            throw DecodeError(libRawStatus.decodeErrorCode, detail, libRawStatus: libRawStatus)
        }

        /// `libraw_unpack`, then the frame with LibRaw's samples, copied row by row out of its raw buffer.
        func decode() throws(DecodeError) -> DecodedRaw {
            let pattern = try checkedPattern()
            try check(libraw_unpack(handle), "libraw_unpack")
            let sizes = handle.pointee.sizes
            guard let rawImage = handle.pointee.rawdata.raw_image else {
                throw DecodeError(.unsupported, "LibRaw decoded no single-channel raw image (non-CFA data)")
            }
            let (rawWidth, rawHeight) = (Int(sizes.raw_width), Int(sizes.raw_height))
            let pitch = Int(sizes.raw_pitch) / 2
            guard rawWidth > 0, rawHeight > 0, pitch >= rawWidth else {
                throw DecodeError(.corrupt, "LibRaw reports a \(rawWidth)×\(rawHeight) image with pitch \(pitch)")
            }
            var largest: UInt16 = 0
            for row in 0..<rawHeight {
                let line = UnsafeBufferPointer(start: rawImage + row * pitch, count: rawWidth)
                largest = max(largest, line.max() ?? 0)
            }
            let frame = try describe(pattern: pattern, largest: largest)
            return try frame.decoded { (output) throws(DecodeError) in
                guard let destination = output.baseAddress, output.count == rawWidth * rawHeight else {
                    throw DecodeError(.corrupt, "LibRaw's raw image does not fit its frame")
                }
                for row in 0..<rawHeight {
                    (destination + row * rawWidth).update(from: rawImage + row * pitch, count: rawWidth)
                }
            }
        }

        /// The frame LibRaw describes once it has opened the file (`libraw_open_buffer`), without `libraw_unpack`:
        /// everything but the samples; its bits per sample are those of the white level, its decoder LibRaw's loader
        /// (`unpacked_load_raw()`, …). Levels, sizes and colour are what ``decode()`` reports for the layouts
        /// ``VendorRawLayout`` reads (LibRaw's `unpack` changes the black levels only from masked pixels, which these
        /// files do not store: `crop_masked_pixels` finds no masked area inside a readout equal to the visible one).
        func identify() throws(DecodeError) -> DecoderWire.Frame {
            try describe(pattern: try checkedPattern(), largest: 0)
        }

        /// The CFA pattern, after refusing the sensors rawcap does not read.
        private func checkedPattern() throws(DecodeError) -> Pattern {
            let idata = handle.pointee.idata
            if idata.is_foveon != 0 {
                throw DecodeError(.unsupported, "Foveon sensor: no colour filter array")
            }
            if idata.filters == 0 {
                throw DecodeError(
                    .unsupported, "LibRaw reports no colour filter array (already-linear or monochrome data)")
            }
            return try cfaPattern()
        }

        /// The frame without its samples, `largest` being the largest sample (0 when they are not decoded yet).
        func describe(pattern: Pattern, largest: UInt16) throws(DecodeError) -> DecoderWire.Frame {
            let sizes = handle.pointee.sizes
            let (rawWidth, rawHeight) = (Int(sizes.raw_width), Int(sizes.raw_height))
            guard rawWidth > 0, rawHeight > 0 else {
                throw DecodeError(.corrupt, "LibRaw reports a \(rawWidth)×\(rawHeight) image")
            }
            let activeArea = PixelRect(
                x: Int(sizes.left_margin), y: Int(sizes.top_margin), width: Int(sizes.width),
                height: Int(sizes.height))
            guard activeArea.width > 0, activeArea.height > 0,
                PixelRect(width: rawWidth, height: rawHeight).contains(activeArea)
            else {
                throw DecodeError(
                    .corrupt, "LibRaw's visible area \(activeArea) is outside the \(rawWidth)×\(rawHeight) sensor")
            }
            let blackLevels = try self.blackLevels(pattern: pattern)
            let whiteLevel = self.whiteLevel(above: blackLevels.max() ?? 0)
            let bits = DecoderWire.Frame.bits(whiteLevel: whiteLevel, largest: largest)
            var warnings = messages
            let crop = defaultCrop(activeArea: activeArea)
            let color = colorCalibration(warnings: &warnings)
            let aspect = pixelAspectRatio(warnings: &warnings)
            return DecoderWire.Frame(
                width: rawWidth, height: rawHeight, bitsPerSample: bits, cfa: pattern.pattern,
                blackLevels: blackLevels, whiteLevel: whiteLevel, activeArea: activeArea,
                defaultCrop: crop ?? RawFrame.defaultCrop(forActiveArea: activeArea), pixelAspectRatio: aspect,
                color: color, metadata: metadata(), storedBitsPerSample: bits, decoder: decoderName(),
                layout: "\(rawWidth)×\(rawHeight) sensor", previews: previewInfo(), warnings: warnings)
        }

        // MARK: Pattern and levels

        /// The pattern and, for each of its positions, LibRaw's colour index (0…3, into `cdesc` and `cblack`).
        struct Pattern {
            let pattern: CFAPattern
            let colorIndices: [Int]
        }

        /// The CFA pattern from `filters` (Bayer-type: LibRaw packs 8 rows × 2 columns of 2-bit colour indices)
        /// or `xtrans` (`filters == 9`), read through `libraw_COLOR`, which counts from the visible area's
        /// top-left: the active area's origin, as DNG and RawFrame want.
        func cfaPattern() throws(DecodeError) -> Pattern {
            let filters = handle.pointee.idata.filters
            let (rows, columns): (Int, Int)
            if filters == 9 {
                (rows, columns) = (6, 6)
            } else if filters >= 1000 {
                // The smallest period of the 8 × 2 table: 2×2 for every Bayer sensor.
                var period = (rows: 8, columns: 2)
                for candidate in [(1, 1), (1, 2), (2, 1), (2, 2), (4, 1), (4, 2), (8, 1)] {
                    let repeats = (0..<8).allSatisfy { row in
                        (0..<2).allSatisfy { column in
                            color(row, column) == color(row % candidate.0, column % candidate.1)
                        }
                    }
                    if repeats {
                        period = candidate
                        break
                    }
                }
                (rows, columns) = period
            } else {
                throw DecodeError(
                    .unsupported, "LibRaw CFA layout \(filters) (Leaf or staggered); rawcap reads Bayer and X-Trans")
            }
            let description = cString(handle.pointee.idata.cdesc)
            var colors: [CFAColor] = []
            var indices: [Int] = []
            for row in 0..<rows {
                for column in 0..<columns {
                    let index = color(row, column)
                    let letter = index < description.count ? Array(description)[index] : "?"
                    switch letter {
                    case "R": colors.append(.red)
                    case "G": colors.append(.green)
                    case "B": colors.append(.blue)
                    default:
                        throw DecodeError(
                            .unsupported, "CFA colours \(description); rawcap reads red/green/blue sensors")
                    }
                    indices.append(index)
                }
            }
            guard Set(colors) == [.red, .green, .blue] else {
                throw DecodeError(.unsupported, "CFA without all of red, green and blue")
            }
            do {
                return Pattern(
                    pattern: try CFAPattern(width: columns, height: rows, colors: colors), colorIndices: indices)
            } catch {
                throw DecodeError(.corrupt, "\(error)")
            }
        }

        private func color(_ row: Int, _ column: Int) -> Int {
            Int(libraw_COLOR(handle, Int32(row), Int32(column)) & 3)
        }

        /// Black level per CFA position: `black`, plus the colour's `cblack[0…3]`, plus the `cblack[6…]` pattern
        /// (`cblack[4]` rows × `cblack[5]` columns, counted from the visible area) when LibRaw has one.
        func blackLevels(pattern: Pattern) throws(DecodeError) -> [Double] {
            let black = Double(handle.pointee.color.black)
            let cblack = Array(
                UnsafeBufferPointer(start: rc_libraw_cblack(handle), count: Int(rc_libraw_cblack_count())))
            let rows = Int(cblack[4])
            let columns = Int(cblack[5])
            guard rows * columns + 6 <= cblack.count else {
                throw DecodeError(.corrupt, "LibRaw black-level pattern of \(rows)×\(columns)")
            }
            var levels: [Double] = []
            for row in 0..<pattern.pattern.height {
                for column in 0..<pattern.pattern.width {
                    let index = pattern.colorIndices[row * pattern.pattern.width + column]
                    var level = black + Double(cblack[index])
                    if rows > 0, columns > 0 {
                        level += Double(cblack[6 + (row % rows) * columns + column % columns])
                    }
                    levels.append(level)
                }
            }
            return levels
        }

        /// `maximum`, or the maker's stated linear limit (`linear_max`, e.g. Canon's SpecularWhiteLevel) when it is
        /// lower: DNG's WhiteLevel is where the sensor stops being linear.
        func whiteLevel(above black: Double) -> Int {
            let color = handle.pointee.color
            let maximum = Int(color.maximum)
            let linear = withUnsafeBytes(of: color.linear_max) { Array($0.bindMemory(to: Int.self)) }
                .filter { $0 > Int(black.rounded(.up)) && $0 < maximum }
            return linear.max() ?? maximum
        }

        /// The camera's crop (`raw_inset_crop`, sensor coordinates) relative to the active area, when set, inside
        /// it and smaller than it; otherwise `nil`, and the frame takes ``RawImage/RawFrame``'s default crop, a
        /// margin inside the active area for demosaicing (Adobe's validator warns about less than 2 pixels).
        func defaultCrop(activeArea: PixelRect) -> PixelRect? {
            let inset = handle.pointee.sizes.raw_inset_crop
            let whole = PixelRect(width: activeArea.width, height: activeArea.height)
            guard inset.cleft != 0xFFFF, inset.ctop != 0xFFFF, inset.cwidth > 0, inset.cheight > 0 else { return nil }
            let crop = PixelRect(
                x: Int(inset.cleft) - activeArea.x, y: Int(inset.ctop) - activeArea.y, width: Int(inset.cwidth),
                height: Int(inset.cheight))
            return whole.contains(crop) && crop != whole ? crop : nil
        }

        /// LibRaw's `pixel_aspect` (pixel width over height; dcraw sets it for a few cameras with non-square
        /// photosites, and from a DNG's DefaultScale), or 1 when it is absurd.
        func pixelAspectRatio(warnings: inout [String]) -> Double {
            let ratio = handle.pointee.sizes.pixel_aspect
            guard ratio != 1 else { return 1 }
            guard ratio.isFinite, (RawFrame.pixelAspectRatioRange).contains(ratio) else {
                warnings.append("LibRaw's pixel aspect ratio \(ratio) is out of range; using square pixels")
                return 1
            }
            return ratio
        }

        // MARK: Colour and metadata

        /// ColorMatrix1/2 with their illuminants and ForwardMatrix1/2 from a DNG's own tags (`dng_color`), else the
        /// D65 matrix LibRaw's table has for the camera (`cam_xyz`); each normalised as DNG readers do.
        func colorCalibration(warnings: inout [String]) -> ColorCalibration {
            let color = handle.pointee.color
            // LibRaw 0.20 leaves `parsedfields` at 0 for the DNG colour and level blocks it fills in, so presence is
            // judged by the values themselves: non-zero matrices, positive neutrals.
            let isDNG = handle.pointee.idata.dng_version != 0
            var neutral = [1.0, 1.0, 1.0]
            let levels = color.dng_levels
            let shotNeutral: [Double] = floats(levels.asshotneutral).prefix(3).map { Double($0) }
            if isDNG, shotNeutral.allSatisfy({ $0 > 0 && $0.isFinite }) {
                let largest = shotNeutral.max() ?? 1
                neutral = shotNeutral.map { $0 / largest }
            } else {
                for multipliers in [floats(color.cam_mul), floats(color.pre_mul)] {
                    let values: [Double] = multipliers.prefix(3).map { Double($0) }
                    guard values.allSatisfy({ $0 > 0 && $0.isFinite }) else { continue }
                    let inverse = values.map { 1 / $0 }
                    let largest = inverse.max() ?? 1
                    neutral = inverse.map { $0 / largest }
                    break
                }
            }
            // LibRaw initialises baseline_exposure to -999 ("not set").
            let baseline =
                isDNG && levels.baseline_exposure.isFinite && levels.baseline_exposure > -100
                ? Double(levels.baseline_exposure) : 0
            var matrices: [(color: Matrix3, illuminant: LightSource, forward: Matrix3?)] = []
            for profile in isDNG ? [color.dng_color.0, color.dng_color.1] : [] {
                // colormatrix is 4 camera colours × 3 XYZ; forwardmatrix is 3 XYZ × 4 camera colours.
                let colorValues: [Double] = floats(profile.colormatrix).prefix(9).map { Double($0) }
                let forwardValues: [Double] = floats(profile.forwardmatrix).enumerated()
                    .filter { $0.offset % 4 < 3 }.map { Double($0.element) }
                guard let matrix = normalised(colorValues) else { continue }
                let forward = forwardValues.contains { $0 != 0 } ? try? Matrix3(forwardValues) : nil
                // 65535 marks an illuminant the file did not give.
                let illuminant =
                    profile.illuminant == 0xFFFF ? LightSource.unknown : LightSource(rawValue: profile.illuminant)
                matrices.append((matrix, illuminant, forward))
            }
            if matrices.isEmpty {
                // Rows 0, 1, 2 of cam_xyz are LibRaw's colours R, G, B (row 3 is the second green or unused):
                // Adobe's D65 ColorMatrix for the camera, from LibRaw's table.
                if let matrix = normalised(floats(color.cam_xyz).prefix(9).map { Double($0) }) {
                    matrices.append((matrix, .d65, nil))
                }
            }
            guard let first = matrices.first else {
                warnings.append("LibRaw has no colour matrix for this camera; the colour is uncalibrated")
                return
                    (try? ColorCalibration(
                        colorMatrix1: ColorCalibration.uncalibrated.colorMatrix1, illuminant1: .d65,
                        asShotNeutral: neutral, baselineExposure: baseline)) ?? .uncalibrated
            }
            let second = matrices.dropFirst().first
            do {
                return try ColorCalibration(
                    colorMatrix1: first.color, illuminant1: first.illuminant, colorMatrix2: second?.color,
                    illuminant2: second?.illuminant, forwardMatrix1: first.forward, forwardMatrix2: second?.forward,
                    asShotNeutral: neutral, baselineExposure: baseline)
            } catch {
                warnings.append("LibRaw's colour data is unusable (\(error)); the colour is uncalibrated")
                return .uncalibrated
            }
        }

        /// A ColorMatrix scaled so that the PCS white (D50) maps to a largest camera value of 1, as the DNG SDK's
        /// NormalizeColorMatrix does when it reads a profile; `nil` for an all-zero or malformed matrix.
        func normalised(_ values: [Double]) -> Matrix3? {
            guard values.contains(where: { $0 != 0 }), let matrix = try? Matrix3(values) else { return nil }
            let white = matrix.apply((0.9642, 1.0, 0.8249))
            let largest = max(white.0, white.1, white.2)
            guard largest > 0 else { return matrix }
            return try? Matrix3(matrix.values.map { $0 / largest })
        }

        func metadata() -> CaptureMetadata {
            let data = handle.pointee
            var metadata = CaptureMetadata()
            metadata.make = nonEmpty(cString(data.idata.make))
            metadata.model = nonEmpty(cString(data.idata.model))
            let normalized = [cString(data.idata.normalized_make), cString(data.idata.normalized_model)]
                .filter { !$0.isEmpty }.joined(separator: " ")
            metadata.uniqueCameraModel = nonEmpty(cString(data.color.UniqueCameraModel)) ?? nonEmpty(normalized)
            metadata.serialNumber =
                nonEmpty(cString(data.shootinginfo.BodySerial))
                ?? nonEmpty(cString(data.shootinginfo.InternalBodySerial))
            metadata.lensModel = nonEmpty(cString(data.lens.Lens)) ?? nonEmpty(cString(data.lens.makernotes.Lens))
            let other = data.other
            if other.shutter > 0 { metadata.exposureTime = TagContext.exposureRational(Double(other.shutter)) }
            if other.aperture > 0, other.aperture.isFinite {
                metadata.fNumber = (Double(other.aperture) * 100).rounded() / 100
            }
            if other.iso_speed >= 1, other.iso_speed < 10_000_000 { metadata.iso = Int(other.iso_speed.rounded()) }
            if other.focal_len > 0, other.focal_len.isFinite {
                metadata.focalLength = (Double(other.focal_len) * 100).rounded() / 100
            }
            if other.timestamp > 0 {
                // LibRaw turns the EXIF date into time_t with mktime (local time); localtime_r gives the fields back.
                var timestamp = other.timestamp
                var fields = tm()
                if localtime_r(&timestamp, &fields) != nil {
                    metadata.captureTime = try? CaptureTime(
                        year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
                        hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec))
                }
            }
            // LibRaw's flip: 0 none, 3 180°, 5 90° counter-clockwise, 6 90° clockwise (dcraw's convention).
            switch data.sizes.flip {
            case 3: metadata.orientation = .rotate180
            case 5: metadata.orientation = .rotate270
            case 6: metadata.orientation = .rotate90
            default: metadata.orientation = .normal
            }
            return metadata
        }

        func decoderName() -> String {
            var info = libraw_decoder_info_t()
            guard libraw_get_decoder_info(handle, &info) == LIBRAW_SUCCESS.rawValue, let name = info.decoder_name else {
                return "unknown decoder"
            }
            return String(cString: name)
        }

        // MARK: Thumbnail

        func previewInfo() -> [RawFileInfo.Preview] {
            let thumbnail = handle.pointee.thumbnail
            guard thumbnail.tlength > 0, thumbnail.twidth > 0, thumbnail.theight > 0 else { return [] }
            let kind: RawFileInfo.Preview.Kind =
                switch thumbnail.tformat {
                case LIBRAW_THUMBNAIL_JPEG: .jpeg
                case LIBRAW_THUMBNAIL_BITMAP: .rgb
                default: .other("LibRaw thumbnail format \(thumbnail.tformat.rawValue)")
                }
            return [
                RawFileInfo.Preview(
                    path: "thumbnail", width: Int(thumbnail.twidth), height: Int(thumbnail.theight), kind: kind,
                    byteCount: Int(thumbnail.tlength))
            ]
        }

        func thumbnail() throws(DecodeError) -> EmbeddedPreview? {
            let status = libraw_unpack_thumb(handle)
            if status == LibRawStatus.noThumbnail.rawValue || status == LibRawStatus.unsupportedThumbnail.rawValue {
                return nil
            }
            try check(status, "libraw_unpack_thumb")
            let thumbnail = handle.pointee.thumbnail
            guard let pointer = thumbnail.thumb, thumbnail.tlength > 0 else { return nil }
            let bytes = Array(UnsafeRawBufferPointer(start: pointer, count: Int(thumbnail.tlength)))
            let (width, height) = (Int(thumbnail.twidth), Int(thumbnail.theight))
            switch thumbnail.tformat {
            case LIBRAW_THUMBNAIL_JPEG:
                return .jpeg(bytes, width: width, height: height)
            case LIBRAW_THUMBNAIL_BITMAP where thumbnail.tcolors == 3 && bytes.count == width * height * 3:
                return (try? RGBImage8(width: width, height: height, pixels: bytes)).map(EmbeddedPreview.rgb)
            default:
                return nil
            }
        }
    }
}

/// A NUL-terminated C string held in a fixed-size array (a tuple in Swift), read without running past its end.
private func cString<T>(_ array: T) -> String {
    withUnsafeBytes(of: array) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self).trimmingSpaces()
    }
}

/// The `Float` entries of a fixed-size C array of floats (a tuple in Swift).
private func floats<T>(_ array: T) -> [Float] {
    withUnsafeBytes(of: array) { Array($0.bindMemory(to: Float.self)) }
}

private func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

extension String {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}

private func dataErrorHandler(_ context: UnsafeMutableRawPointer?, _ file: UnsafePointer<CChar>?, _ offset: Int32) {
    guard let context else { return }
    let session = Unmanaged<LibRawDecoder.Session>.fromOpaque(context).takeUnretainedValue()
    session.record(offset < 0 ? "unexpected end of file" : "data corrupted at byte \(offset)")
}

private func memoryErrorHandler(
    _ context: UnsafeMutableRawPointer?, _ file: UnsafePointer<CChar>?, _ where: UnsafePointer<CChar>?
) {
    guard let context else { return }
    let session = Unmanaged<LibRawDecoder.Session>.fromOpaque(context).takeUnretainedValue()
    session.record("out of memory in \(`where`.map { String(cString: $0) } ?? "LibRaw")")
}
