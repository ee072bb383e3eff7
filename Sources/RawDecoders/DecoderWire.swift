import FoundationEssentials
import RawImage
import WireFormat

#if canImport(Glibc)
    import Glibc
#endif

/// The messages between rawcap and its decoder worker (``DecoderWorker``, ``ContainedDecoder``), over one Unix
/// stream socket.
///
/// A request is a ``RequestHeader`` and the file's bytes. A reply is a 20-byte ``ReplyHeader``, a JSON description, and the payload:
/// the samples in native byte order, written straight from the worker's frame and read straight into the frame's
/// storage on this side (no buffer in between), or the preview's bytes.
enum DecoderWire {
    static let requestMagic: UInt32 = 0x5157_4352  // "RCWQ"
    static let replyMagic: UInt32 = 0x5257_4352  // "RCWR"

    /// What is asked of the worker.
    enum RequestKind: UInt32 {
        /// ``LibRawDecoder/decode(_:)``.
        case decode = 1
        /// ``LibRawDecoder/preview(_:)``.
        case preview = 2
        /// ``LibRawDecoder/identify(_:)``: the frame without its samples. The payload is an ``Omission`` and the
        /// file without the bytes it names (the samples rawcap decodes itself), which the worker reads as zeros.
        case identify = 3
        /// Misbehave as one ``SelfTest`` byte says (containment tests).
        case selfTest = 9
    }

    /// The misbehaviours a ``RequestKind/selfTest`` request asks for.
    enum SelfTest: UInt8, Sendable {
        /// Die of SIGSEGV, as LibRaw 0.20 does on a TIFF/EP with a 36-entry CFAPattern.
        case crash = 1
        /// Spin on the CPU forever, as LibRaw's CR3 parser does on a crafted box tree.
        case spin = 2
        /// Allocate and touch memory until allocation fails, then reply.
        case allocate = 3
        /// Sleep without using the CPU.
        case sleep = 4
    }

    /// A request's header: magic, kind, the file's length (UInt64), then the limits the worker sets on itself before
    /// it reads the file: CPU seconds for this file and the address space in MiB (UInt32 each); 24 bytes,
    /// little-endian.
    struct RequestHeader {
        var kind: RequestKind
        var length: Int
        var cpuSeconds: Int
        var addressSpaceMegabytes: Int

        static let byteCount = 24

        var bytes: [UInt8] {
            var writer = WireWriter(byteOrder: .little, capacity: Self.byteCount)
            writer.write(UInt32(requestMagic))
            writer.write(kind.rawValue)
            writer.write(UInt64(length))
            writer.write(UInt32(clamping: cpuSeconds))
            writer.write(UInt32(clamping: addressSpaceMegabytes))
            return writer.bytes
        }

        init(kind: RequestKind, length: Int, cpuSeconds: Int, addressSpaceMegabytes: Int) {
            self.kind = kind
            self.length = length
            self.cpuSeconds = cpuSeconds
            self.addressSpaceMegabytes = addressSpaceMegabytes
        }

        init?(_ bytes: [UInt8]) {
            var reader = WireReader(bytes, byteOrder: .little)
            guard let magic = try? reader.read(UInt32.self), magic == requestMagic,
                let rawKind = try? reader.read(UInt32.self), let kind = RequestKind(rawValue: rawKind),
                let length = try? reader.read(UInt64.self), length <= UInt64(RawDecoder.maxFileSize),
                let cpu = try? reader.read(UInt32.self), let memory = try? reader.read(UInt32.self)
            else { return nil }
            self.init(kind: kind, length: Int(length), cpuSeconds: Int(cpu), addressSpaceMegabytes: Int(memory))
        }
    }

    /// The bytes of the file an ``RequestKind/identify`` request leaves out: `length` bytes from `start`, 16 bytes
    /// little-endian (two UInt64) before the rest of the file.
    struct Omission: Equatable {
        var start: Int
        var length: Int

        static let byteCount = 16

        var bytes: [UInt8] {
            var writer = WireWriter(byteOrder: .little, capacity: Self.byteCount)
            writer.write(UInt64(start))
            writer.write(UInt64(length))
            return writer.bytes
        }

        init(start: Int, length: Int) {
            self.start = start
            self.length = length
        }

        /// The omission of a request whose payload is `payloadLength` bytes; `nil` unless the whole file (what was
        /// sent and what was left out) fits ``RawDecoder/maxFileSize`` with the omission inside it.
        init?(_ bytes: [UInt8], payloadLength: Int) {
            var reader = WireReader(bytes, byteOrder: .little)
            guard let start = try? reader.read(UInt64.self), let length = try? reader.read(UInt64.self),
                payloadLength >= Self.byteCount, start <= UInt64(RawDecoder.maxFileSize),
                length <= UInt64(RawDecoder.maxFileSize)
            else { return nil }
            let sent = payloadLength - Self.byteCount
            guard Int(start) <= sent, sent + Int(length) <= RawDecoder.maxFileSize else { return nil }
            self.init(start: Int(start), length: Int(length))
        }
    }

    /// What the worker answers.
    enum ReplyKind: UInt32 {
        /// A ``Frame`` and the samples.
        case frame = 1
        /// A ``Failure``; no payload.
        case failure = 2
        /// A ``Preview``, and its bytes (JPEG or RGB) unless it is `none`.
        case preview = 3
    }

    /// A reply's header: magic, kind, JSON length (UInt32) and payload length (UInt64; the payload of a
    /// 400-megapixel frame is 800 MB), 20 bytes little-endian.
    struct ReplyHeader {
        var kind: ReplyKind
        var jsonLength: Int
        var payloadLength: Int

        static let byteCount = 4 + 4 + 4 + 8

        var bytes: [UInt8] {
            var writer = WireWriter(byteOrder: .little)
            writer.write(UInt32(replyMagic))
            writer.write(kind.rawValue)
            writer.write(UInt32(jsonLength))
            writer.write(UInt64(payloadLength))
            return writer.bytes
        }

        init(kind: ReplyKind, jsonLength: Int, payloadLength: Int) {
            self.kind = kind
            self.jsonLength = jsonLength
            self.payloadLength = payloadLength
        }

        init?(_ bytes: [UInt8]) {
            var reader = WireReader(bytes, byteOrder: .little)
            guard let magic = try? reader.read(UInt32.self), magic == replyMagic,
                let rawKind = try? reader.read(UInt32.self), let kind = ReplyKind(rawValue: rawKind),
                let json = try? reader.read(UInt32.self), let payload = try? reader.read(UInt64.self),
                json <= 1 << 24, let payloadLength = Int(exactly: payload)
            else { return nil }
            self.init(kind: kind, jsonLength: Int(json), payloadLength: payloadLength)
        }
    }

    /// A decoded CFA frame without its samples, and what ``RawFileInfo`` LibRaw gave.
    struct Frame: Codable {
        var width: Int
        var height: Int
        var bitsPerSample: Int
        var cfaWidth: Int
        var cfaHeight: Int
        var cfaColors: [UInt8]
        var blackLevels: [Double]
        var whiteLevel: Int
        var activeArea: PixelRect
        var defaultCrop: PixelRect
        var pixelAspectRatio: Double
        var color: ColorCalibration
        var metadata: CaptureMetadata
        var storedBitsPerSample: Int
        var decoder: String
        var layout: String
        var previews: [Preview]
        var warnings: [String]

        init(
            width: Int, height: Int, bitsPerSample: Int, cfa: CFAPattern, blackLevels: [Double], whiteLevel: Int,
            activeArea: PixelRect, defaultCrop: PixelRect, pixelAspectRatio: Double, color: ColorCalibration,
            metadata: CaptureMetadata, storedBitsPerSample: Int, decoder: String, layout: String,
            previews: [RawFileInfo.Preview], warnings: [String]
        ) {
            self.width = width
            self.height = height
            self.bitsPerSample = bitsPerSample
            cfaWidth = cfa.width
            cfaHeight = cfa.height
            cfaColors = cfa.colors.map(\.rawValue)
            self.blackLevels = blackLevels
            self.whiteLevel = whiteLevel
            self.activeArea = activeArea
            self.defaultCrop = defaultCrop
            self.pixelAspectRatio = pixelAspectRatio
            self.color = color
            self.metadata = metadata
            self.storedBitsPerSample = storedBitsPerSample
            self.decoder = decoder
            self.layout = layout
            self.previews = previews.map(Preview.init)
            self.warnings = warnings
        }

        /// The bits per sample of a frame LibRaw describes: enough for the white level and the largest sample, 8 to
        /// 16.
        static func bits(whiteLevel: Int, largest: UInt16) -> Int {
            min(16, max(8, TIFFRawReader.bitLength(max(whiteLevel, Int(largest)))))
        }

        init(_ decoded: DecodedRaw, frame: RawFrame) {
            width = frame.width
            height = frame.height
            bitsPerSample = frame.bitsPerSample
            cfaWidth = frame.cfa.width
            cfaHeight = frame.cfa.height
            cfaColors = frame.cfa.colors.map(\.rawValue)
            blackLevels = frame.blackLevels
            whiteLevel = frame.whiteLevel
            activeArea = frame.activeArea
            defaultCrop = frame.defaultCrop
            pixelAspectRatio = frame.pixelAspectRatio
            color = frame.color
            metadata = frame.metadata
            storedBitsPerSample = decoded.storedBitsPerSample
            if case .vendor(let name) = decoded.info.container { decoder = name } else { decoder = "" }
            layout = decoded.info.storage.layout
            previews = decoded.info.previews.map(Preview.init)
            warnings = decoded.info.warnings
        }

        /// The result, its samples read into place by `fill`, which must initialise all `count` of them.
        func decoded(
            samples fill: (UnsafeMutableBufferPointer<UInt16>) throws(DecodeError) -> Void
        ) throws(DecodeError) -> DecodedRaw {
            try decoded(bitsFromSamples: false) { (buffer) throws(DecodeError) -> UInt16 in
                try fill(buffer)
                return 0
            }
        }

        /// The result, its samples read into place by `fill`, which must initialise all `count` of them and return
        /// the largest; with `bitsFromSamples` the bits per sample are worked out from the white level and that
        /// largest sample, as LibRaw's decode does (an identified frame's are the white level's alone).
        func decoded(
            bitsFromSamples: Bool, samples fill: (UnsafeMutableBufferPointer<UInt16>) throws(DecodeError) -> UInt16
        ) throws(DecodeError) -> DecodedRaw {
            var bitsPerSample = self.bitsPerSample
            var storedBitsPerSample = self.storedBitsPerSample
            guard (1...WireLimits.maxImageDimension).contains(width), (1...WireLimits.maxImageDimension).contains(height),
                width * height <= WireLimits.maxImagePixels
            else { throw DecodeError(.corrupt, "the decoder worker described a \(width)×\(height) frame") }
            var failure: DecodeError?
            let samples = [UInt16](unsafeUninitializedCapacity: width * height) { buffer, initialized in
                do throws(DecodeError) {
                    HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
                    let largest = try fill(buffer)
                    if bitsFromSamples {
                        bitsPerSample = Self.bits(whiteLevel: whiteLevel, largest: largest)
                        storedBitsPerSample = bitsPerSample
                    }
                    initialized = buffer.count
                } catch {
                    failure = error
                    initialized = 0
                }
            }
            if let failure { throw failure }
            do {
                var frame = try RawFrame(
                    width: width, height: height, bitsPerSample: bitsPerSample, samples: samples,
                    cfa: try CFAPattern(width: cfaWidth, height: cfaHeight, colors: cfaColors.map(CFAColor.init)),
                    blackLevels: blackLevels, whiteLevel: whiteLevel, activeArea: activeArea, defaultCrop: defaultCrop,
                    color: color, metadata: metadata)
                frame.pixelAspectRatio = pixelAspectRatio
                let info = RawFileInfo(
                    container: .vendor(decoder),
                    storage: RawFileInfo.Storage(
                        path: "", compression: nil, layout: layout, bitsPerSample: storedBitsPerSample,
                        samplesPerPixel: 1),
                    previews: previews.map(\.info), warnings: warnings, reader: .libRaw)
                return DecodedRaw(image: .cfa(frame), storedBitsPerSample: storedBitsPerSample, info: info)
            } catch {
                throw DecodeError(.corrupt, "the decoder worker's frame does not fit together: \(error)")
            }
        }
    }

    /// One ``RawFileInfo/Preview``.
    struct Preview: Codable {
        var path: String
        var width: Int
        var height: Int
        /// `JPEG`, `RGB` or a description.
        var kind: String
        var byteCount: Int

        init(_ preview: RawFileInfo.Preview) {
            path = preview.path
            width = preview.width
            height = preview.height
            kind = preview.kind.description
            byteCount = preview.byteCount
        }

        var info: RawFileInfo.Preview {
            let kind: RawFileInfo.Preview.Kind =
                switch self.kind {
                case "JPEG": .jpeg
                case "RGB": .rgb
                default: .other(self.kind)
                }
            return RawFileInfo.Preview(path: path, width: width, height: height, kind: kind, byteCount: byteCount)
        }
    }

    /// An embedded preview's shape; its bytes are the payload.
    struct Thumbnail: Codable {
        /// `jpeg`, `rgb` or `none`.
        var kind: String
        var width: Int
        var height: Int
    }

    /// A ``DecodeError`` as the worker threw it.
    struct Failure: Codable {
        var code: String
        var offset: Int?
        var detail: String
        var libRawStatus: Int32?

        init(_ error: DecodeError) {
            code = error.code.rawValue
            offset = error.offset
            detail = error.detail
            libRawStatus = error.libRawStatus?.rawValue
        }

        var error: DecodeError {
            DecodeError(
                DecodeError.Code(rawValue: code), at: offset, detail, libRawStatus: libRawStatus.map(LibRawStatus.init))
        }
    }

    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return (try? Array(encoder.encode(value))) ?? Array("{}".utf8)
    }

    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(DecodeError) -> T {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch {
            throw DecodeError(.corrupt, "the decoder worker's reply cannot be read: \(error)")
        }
    }
}
