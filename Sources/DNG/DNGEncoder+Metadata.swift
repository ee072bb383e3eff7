import OutputFiles
import RawImage

extension DNGEncoder {
    /// What RawDataUniqueID is derived from besides the raw digest: the things that make one capture differ from
    /// another with identical pixels (camera, serial number, time) and the geometry that affects rendering.
    struct UniqueIDSource: Sendable {
        var metadata: CaptureMetadata
        var crop: PixelRect
        var activeArea: PixelRect?

        /// MD5 of a versioned, unambiguous serialisation: the raw digest, NUL-terminated strings, then the rectangles
        /// as little-endian 32-bit integers (the same idea as the SDK's `FindRawDataUniqueID`, which hashes the raw
        /// digest, the model name and the crop).
        func uniqueID(rawDigest: [UInt8]) -> [UInt8] {
            var bytes = Array("rawcap RawDataUniqueID 1\0".utf8) + rawDigest
            for text in [
                metadata.effectiveUniqueCameraModel, metadata.serialNumber ?? "",
                metadata.captureTime?.description ?? "",
            ] {
                bytes += Array(text.utf8) + [0]
            }
            for rect in [crop, activeArea ?? PixelRect(width: 0, height: 0)] {
                for value in [rect.x, rect.y, rect.width, rect.height] {
                    let word = UInt32(truncatingIfNeeded: value)
                    bytes += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: word >> $0) }
                }
            }
            return MessageDigest.hash(.md5, bytes)
        }
    }

    /// The previews a plan is made with: rendered, or still being rendered (planned from their expected shape).
    enum PlannedPreviews {
        case ready(DNGPreviews)
        case pending(PendingPreviews)
    }

    /// Builds IFD0 (thumbnail, DNG and colour tags) around the raw SubIFD, adds the preview SubIFD and the EXIF IFD.
    func assemble(
        raw: DNGDirectory, digests: RawDigests?, metadata: CaptureMetadata,
        color: ColorCalibration, toneCurve: [(x: Double, y: Double)]?, previews: PlannedPreviews
    ) throws(DNGError) -> DNGPlan {
        let thumbnail: (width: Int, height: Int, chunk: DNGImageChunk)
        let preview: DNGDirectory?
        switch previews {
        case .ready(let ready):
            thumbnail = (ready.thumbnail.width, ready.thumbnail.height, DNGImageChunk(bytes: ready.thumbnail.pixels))
            preview = try ready.preview.map { jpeg throws(DNGError) in try previewDirectory(jpeg) }
        case .pending(let pending):
            let shape = pending.expected
            thumbnail = (
                shape.thumbnailWidth, shape.thumbnailHeight,
                DNGImageChunk(thumbnailOf: pending, byteCount: shape.thumbnailWidth * shape.thumbnailHeight * 3)
            )
            preview = try shape.preview.map { size throws(DNGError) in
                try previewDirectory(pending: pending, width: size.width, height: size.height)
            }
        }
        var entries: [DNGEntry] = [
            try DNGEntry(.newSubfileType, .long(1)),
            try DNGEntry(.imageWidth, .long(UInt32(thumbnail.width))),
            try DNGEntry(.imageLength, .long(UInt32(thumbnail.height))),
            try DNGEntry(.bitsPerSample, .shorts([8, 8, 8])),
            try DNGEntry(.compression, .short(1)),
            try DNGEntry(.photometricInterpretation, .short(2)),
            // rawspeed refuses a DNG without Make (dng-facts.md fact 7), so a frame without one says "rawcap".
            try DNGEntry(.make, .ascii(Self.ascii(metadata.make) ?? "rawcap")),
            try DNGEntry(.orientation, .short(metadata.orientation.rawValue)),
            try DNGEntry(.samplesPerPixel, .short(3)),
            try DNGEntry(.rowsPerStrip, .long(UInt32(thumbnail.height))),
            try DNGEntry(.planarConfiguration, .short(1)),
            try DNGEntry(.dngVersion, .bytes(Self.dngVersion)),
            try DNGEntry(.dngBackwardVersion, .bytes(Self.dngBackwardVersion)),
            try DNGEntry(.uniqueCameraModel, .ascii(Self.ascii(metadata.effectiveUniqueCameraModel) ?? "rawcap")),
            try DNGEntry(.colorMatrix1, .srationals(color.colorMatrix1.values)),
            try DNGEntry(.asShotNeutral, .rationals(color.asShotNeutral)),
            try DNGEntry(.baselineExposure, .srational(color.baselineExposure)),
            try DNGEntry(.calibrationIlluminant1, .short(color.illuminant1.rawValue)),
            try DNGEntry(.profileName, .ascii(Self.ascii(options.profileName) ?? "Embedded")),
            // Both the thumbnail and a rendered JPEG preview are sRGB (DNG 1.7 p.55: 2 = sRGB).
            try DNGEntry(.previewColorSpace, .long(2)),
        ]
        if let model = Self.ascii(metadata.model) { entries.append(try DNGEntry(.model, .ascii(model))) }
        if let software = Self.ascii(options.software) { entries.append(try DNGEntry(.software, .ascii(software))) }
        if let packet = XMPPacket(metadata) { entries.append(try DNGEntry(.xmp, .bytes(packet.bytes))) }
        if let serial = Self.ascii(metadata.serialNumber) {
            entries.append(try DNGEntry(.cameraSerialNumber, .ascii(serial)))
        }
        if let matrix = color.colorMatrix2, let illuminant = color.illuminant2 {
            entries.append(try DNGEntry(.colorMatrix2, .srationals(matrix.values)))
            entries.append(try DNGEntry(.calibrationIlluminant2, .short(illuminant.rawValue)))
        }
        if let forward = color.forwardMatrix1 {
            entries.append(try DNGEntry(.forwardMatrix1, .srationals(forward.values)))
        }
        if let forward = color.forwardMatrix2 {
            guard color.colorMatrix2 != nil else {
                throw DNGError(.invalidInput, "ForwardMatrix2 needs ColorMatrix2 and CalibrationIlluminant2")
            }
            entries.append(try DNGEntry(.forwardMatrix2, .srationals(forward.values)))
        }
        if let toneCurve {
            entries.append(try DNGEntry(.profileToneCurve, .floats(toneCurve.flatMap { [Float($0.x), Float($0.y)] })))
        }
        if let digests {
            entries.append(try DNGEntry(.newRawImageDigest, .bytes(digests.newRawImageDigest)))
            entries.append(try DNGEntry(.rawDataUniqueID, .bytes(digests.rawDataUniqueID)))
        }

        var children = [raw]
        if let preview { children.append(preview) }
        let root = try DNGDirectory(
            entries: entries,
            image: DNGImageData(layout: .strips(rowsPerStrip: thumbnail.height), chunks: [thumbnail.chunk]),
            subDirectories: children,
            exif: try exifDirectory(metadata))
        return try DNGPlan(root: root)
    }

    /// The EXIF IFD: ExifVersion always (so it is never empty), then whatever the metadata knows.
    func exifDirectory(_ metadata: CaptureMetadata) throws(DNGError) -> DNGDirectory.EXIFDirectory {
        var entries = [try DNGEntry(.exifVersion, .undefined(Array("0232".utf8)))]
        if let time = metadata.exposureTime {
            entries.append(try DNGEntry(.exposureTime, .rational(time.doubleValue)))
        }
        if let fNumber = metadata.fNumber { entries.append(try DNGEntry(.fNumber, .rational(fNumber))) }
        if let iso = metadata.iso {
            guard iso > 0, let iso32 = UInt32(exactly: iso) else {
                throw DNGError(.invalidInput, "ISO \(iso) is not a positive 32-bit value")
            }
            if let iso16 = UInt16(exactly: iso), iso16 != 0xFFFF {
                entries.append(try DNGEntry(.photographicSensitivity, .shorts([iso16])))
            } else {
                // EXIF 2.32 §4.6.5: 65535 means "too large, see RecommendedExposureIndex" (SensitivityType 2).
                entries.append(try DNGEntry(.photographicSensitivity, .shorts([0xFFFF])))
                entries.append(try DNGEntry(.sensitivityType, .short(2)))
                entries.append(try DNGEntry(.recommendedExposureIndex, .long(iso32)))
            }
        }
        if let bias = metadata.exposureBias {
            entries.append(try DNGEntry(.exposureBiasValue, .srational(bias.doubleValue)))
        }
        if let focalLength = metadata.focalLength {
            entries.append(try DNGEntry(.focalLength, .rational(focalLength)))
        }
        if let time = metadata.captureTime {
            entries.append(try DNGEntry(.dateTimeOriginal, .ascii(time.exifDateTime)))
            if !time.subSeconds.isEmpty {
                entries.append(try DNGEntry(.subSecTimeOriginal, .ascii(time.subSeconds)))
            }
            if let offset = time.exifOffset { entries.append(try DNGEntry(.offsetTimeOriginal, .ascii(offset))) }
        }
        if let serial = Self.ascii(metadata.serialNumber) {
            entries.append(try DNGEntry(.bodySerialNumber, .ascii(serial)))
        }
        if let lens = Self.ascii(metadata.lensModel) { entries.append(try DNGEntry(.lensModel, .ascii(lens))) }
        return try DNGDirectory.EXIFDirectory(entries: entries)
    }

    /// A string from the camera or the user made fit for TIFF ASCII: printable 7-bit characters kept, anything else
    /// (control characters, NUL, non-ASCII) replaced by `?`, surrounding spaces trimmed; `nil` when nothing is left.
    static func ascii(_ text: String?) -> String? {
        guard let text else { return nil }
        let mapped = String(text.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
        let trimmed = mapped.trimmingSpaces()
        return trimmed.isEmpty ? nil : trimmed
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}
