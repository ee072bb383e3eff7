import WireFormat

/// Walks the marker segments of one stream (T.81 B.2) and runs the scan decoder on each scan.
///
/// The syntax accepted (T.81 B.2.1, Figures B.2–B.4, for a single frame):
///
///     SOI  { DHT | DRI | DQT | COM | APPn }  SOF3
///          { { DHT | DRI | DQT | COM | APPn }  SOS  entropy-coded data with RSTn between intervals }
///     EOI
///
/// Marker segments are read with `WireReader` (big-endian, bounds-checked); the entropy-coded data goes to
/// ``LJ92ScanDecoder``. The parser is two-phase so that a caller can size its output from the frame header before
/// any sample is decoded: ``readFrameHeader()`` stops after SOF3, ``decodeScans(into:rowStride:)`` does the rest.
struct LJ92StreamParser {
    /// The whole stream; indices are those of the caller's slice.
    let bytes: ArraySlice<UInt8>
    /// Absolute index of the next byte to parse.
    private var position: Int
    /// Huffman tables by destination Th (0…3), as the last DHT defined them.
    private var tables = [LJ92HuffmanTable?](repeating: nil, count: 4)
    /// Their decoding structures, built when a scan first uses a table: a stream of many DHT segments then costs
    /// time in proportion to its length, not 16 KiB of lookup table per segment.
    private var decodingTables = [LJ92DecodingTable?](repeating: nil, count: 4)
    /// Restart interval Ri in MCUs; 0 when restarts are off.
    private var restartInterval = 0
    /// The frame header, once SOF3 has been read.
    private var frame: LJ92FrameHeader?
    /// Per frame component: whether a scan has decoded it (T.81 allows each component in one scan only).
    private var decoded: [Bool] = []
    /// Per frame component: the point transform Pt of its scan, undone once all scans are decoded.
    private var pointTransforms: [Int] = []

    /// Starts at the first byte of `bytes`, which must be SOI.
    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    /// Parses SOI and every segment up to SOF3, and checks the frame against the limits and the input length.
    mutating func readFrameHeader() throws(LJ92Error) -> LJ92FrameHeader {
        let first = try readMarker()
        guard first.marker == .startOfImage, first.offset == bytes.startIndex else {
            throw LJ92Error(.unexpectedMarker, at: first.offset, "the stream starts with \(first.marker), not SOI")
        }
        while true {
            let (marker, offset) = try readMarker()
            switch marker {
            case .startOfFrameLossless:
                let frame = try readFrame(at: offset)
                self.frame = frame
                decoded = [Bool](repeating: false, count: frame.components)
                pointTransforms = [Int](repeating: 0, count: frame.components)
                return frame
            case .startOfImage, .endOfImage, .startOfScan, .defineNumberOfLines:
                throw LJ92Error(.unexpectedMarker, at: offset, "\(marker) before the frame header")
            default:
                try readTableOrMiscellaneous(marker, at: offset, context: "before the frame header")
            }
        }
    }

    /// Parses the rest of the stream after SOF3, decoding every scan into `output`, and stops at EOI.
    mutating func decodeScans(into output: UnsafeMutablePointer<UInt16>, rowStride: Int) throws(LJ92Error) {
        guard let frame else { throw LJ92Error(.invalidInput, at: position, "no frame header read") }
        var pending: (marker: JPEGMarker, offset: Int)?
        while true {
            let next: (marker: JPEGMarker, offset: Int)
            if let pending {
                next = pending
            } else {
                next = try readMarker()
            }
            pending = nil
            let (marker, offset) = next
            switch marker {
            case .startOfScan:
                pending = try decodeScan(at: offset, frame: frame, output: output, rowStride: rowStride)
            case .endOfImage:
                if let missing = decoded.firstIndex(of: false) {
                    throw LJ92Error(
                        .truncated, at: offset, "EOI before any scan coded component \(frame.componentIDs[missing])")
                }
                undoPointTransforms(frame: frame, output: output, rowStride: rowStride)
                return
            case .startOfImage, .defineNumberOfLines:
                throw LJ92Error(.unexpectedMarker, at: offset, "\(marker) inside the frame")
            default:
                if marker.isStartOfFrame {
                    throw LJ92Error(.unexpectedMarker, at: offset, "a second frame header (\(marker))")
                }
                try readTableOrMiscellaneous(marker, at: offset, context: "inside the frame")
            }
        }
    }

    // MARK: - Markers and segments

    /// Reads a marker at `position`: `0xFF`, optional fill bytes `0xFF`, then the code (T.81 B.1.1.2).
    private mutating func readMarker() throws(LJ92Error) -> (marker: JPEGMarker, offset: Int) {
        let offset = position
        guard position < bytes.endIndex else {
            throw LJ92Error(.truncated, at: position, "the stream ends without EOI")
        }
        guard bytes[position] == 0xFF else {
            throw LJ92Error(
                .unexpectedMarker, at: position, "expected a marker, found byte 0x\(hexByte(bytes[position]))")
        }
        while position < bytes.endIndex && bytes[position] == 0xFF { position += 1 }
        guard position < bytes.endIndex else {
            throw LJ92Error(.truncated, at: position, "the stream ends inside a marker")
        }
        let code = bytes[position]
        position += 1
        guard code != 0x00 else {
            throw LJ92Error(.unexpectedMarker, at: offset, "a stuffed 0xFF00 outside entropy-coded data")
        }
        return (JPEGMarker(rawValue: code), offset)
    }

    /// Carves out the segment that starts at `position` (length field included) and skips it.
    private mutating func readSegment(_ marker: JPEGMarker) throws(LJ92Error) -> WireReader {
        do {
            var reader = WireReader(bytes[position...], byteOrder: .big)
            let length = Int(try reader.read(UInt16.self))
            guard length >= 2 else {
                throw LJ92Error(.invalidValue, at: position, "\(marker) segment length \(length) is below 2")
            }
            let body = try reader.readReader(count: length - 2)
            position = reader.offset
            return body
        } catch {
            throw Self.wrap(error, while: "reading the \(marker) segment")
        }
    }

    /// Handles the segments allowed before a frame and between scans (T.81 B.2.4, B.2.4.6), and rejects the rest.
    private mutating func readTableOrMiscellaneous(
        _ marker: JPEGMarker, at offset: Int, context: String
    ) throws(LJ92Error) {
        switch marker {
        case .defineHuffmanTables:
            try readHuffmanTables(try readSegment(marker))
        case .defineRestartInterval:
            var segment = try readSegment(marker)
            do throws(WireError) {
                restartInterval = Int(try segment.read(UInt16.self))
                try segment.expectEnd("DRI")
            } catch {
                throw LJ92Error(error, while: "reading DRI")
            }
        case .comment, .defineQuantizationTables:
            _ = try readSegment(marker)
        case .defineArithmeticConditioning:
            throw LJ92Error(.unsupportedProcess, at: offset, "DAC: arithmetic coding is not supported")
        case .defineHierarchicalProgression, .expandReferenceComponents:
            throw LJ92Error(.unsupportedProcess, at: offset, "\(marker): hierarchical coding is not supported")
        default:
            if marker.isApplicationSegment {
                _ = try readSegment(marker)
            } else if marker.isStartOfFrame {
                throw LJ92Error(
                    .unsupportedProcess, at: offset,
                    "\(marker) is not lossless Huffman coding (SOF3); only process 14 is supported")
            } else {
                throw LJ92Error(.unexpectedMarker, at: offset, "\(marker) \(context)")
            }
        }
    }

    /// SOF3 (T.81 B.2.2), checked against the lossless ranges, `WireLimits` and the bytes left.
    private mutating func readFrame(at offset: Int) throws(LJ92Error) -> LJ92FrameHeader {
        var segment = try readSegment(.startOfFrameLossless)
        do {
            let precision = Int(try segment.read(UInt8.self))
            let height = Int(try segment.read(UInt16.self))
            let width = Int(try segment.read(UInt16.self))
            let count = Int(try segment.read(UInt8.self))
            guard (2...16).contains(precision) else {
                throw LJ92Error(.invalidValue, at: offset, "precision \(precision) is outside 2…16")
            }
            guard height > 0 else {
                throw LJ92Error(.unsupportedProcess, at: offset, "height 0 (defined by a DNL marker)")
            }
            guard width > 0, count > 0 else {
                throw LJ92Error(.invalidValue, at: offset, "frame of width \(width) with \(count) components")
            }
            // T.81 allows up to 255 components in a lossless frame; raw files use 1…4 (DNG: 1, 2, 3 or 4).
            guard count <= 4 else {
                throw LJ92Error(.unsupportedProcess, at: offset, "\(count) components; rawcap decodes 1…4")
            }
            // The frame, not the tile, is limited: JPEG frames are never wider than the image they code (DNG tiles
            // are narrower, and a 2-component CFA frame is half as wide), so the image limits bound them too.
            guard width <= WireLimits.maxImageDimension, height <= WireLimits.maxImageDimension,
                width * height <= WireLimits.maxImagePixels
            else {
                throw LJ92Error(.limitExceeded, at: offset, "frame \(width)×\(height) is above the image limits")
            }
            guard segment.remainingCount == 3 * count else {
                throw LJ92Error(.invalidValue, at: offset, "SOF3 length does not match \(count) components")
            }
            var identifiers: [UInt8] = []
            for _ in 0..<count {
                let identifier = try segment.read(UInt8.self)
                let sampling = try segment.read(UInt8.self)
                _ = try segment.read(UInt8.self)  // Tq: no quantisation in lossless coding.
                guard !identifiers.contains(identifier) else {
                    throw LJ92Error(.invalidValue, at: offset, "component id \(identifier) appears twice")
                }
                guard sampling == 0x11 else {
                    throw LJ92Error(
                        .unsupportedProcess, at: offset,
                        "component \(identifier) has sampling factors \(sampling >> 4)×\(sampling & 15), not 1×1")
                }
                identifiers.append(identifier)
            }
            let frame = LJ92FrameHeader(
                precision: precision, width: width, height: height, componentIDs: identifiers)
            // Every sample costs at least one bit (the shortest Huffman code), so a frame that needs more bits than
            // the rest of the input holds is cut short; refusing it here keeps a tiny hostile input from making
            // the decoder allocate the whole frame.
            let available = bytes.endIndex - position
            guard frame.sampleCount / 8 <= available else {
                throw LJ92Error(
                    .truncated, at: offset,
                    "a \(width)×\(height)×\(count) frame needs more than the \(available) bytes that follow")
            }
            return frame
        } catch {
            throw Self.wrap(error, while: "reading SOF3")
        }
    }

    /// DHT (T.81 B.2.4.2): any number of tables; lossless scans use only class 0 tables, so class 1 (AC) tables,
    /// which some encoders write anyway, are checked for length and skipped.
    private mutating func readHuffmanTables(_ segment: WireReader) throws(LJ92Error) {
        var segment = segment
        do {
            while !segment.isAtEnd {
                let offset = segment.offset
                let classAndDestination = try segment.read(UInt8.self)
                let tableClass = classAndDestination >> 4
                let destination = Int(classAndDestination & 0x0F)
                guard tableClass <= 1, destination <= 3 else {
                    throw LJ92Error(
                        .invalidValue, at: offset, "DHT class \(tableClass) destination \(destination) is invalid")
                }
                let counts = Array(try segment.readBytes(count: 16))
                let total = counts.reduce(0) { $0 + Int($1) }
                guard total <= 256 else {
                    throw LJ92Error(.invalidTable, at: offset, "\(total) Huffman codes; at most 256 are allowed")
                }
                let values = Array(try segment.readBytes(count: total))
                guard tableClass == 0 else { continue }
                let table: LJ92HuffmanTable
                do throws(LJ92Error) {
                    table = try LJ92HuffmanTable(codeCounts: counts, values: values)
                } catch {
                    throw LJ92Error(error.code, at: offset, "table \(destination): \(error.detail)")
                }
                tables[destination] = table
                decodingTables[destination] = nil
            }
        } catch {
            throw Self.wrap(error, while: "reading DHT")
        }
    }

    // MARK: - Scans

    /// Parses a scan header, decodes its data and returns the marker that follows it.
    ///
    /// | field | size | meaning (T.81 B.2.3, lossless) |
    /// |---|---|---|
    /// | `Ls` | 2 | segment length, 6 + 2 × Ns |
    /// | `Ns` | 1 | components in the scan, 1…4 |
    /// | `Csj`, `Tdj`/`Taj` | 2 × Ns | component id; Huffman table (Td); Ta is unused in lossless mode |
    /// | `Ss` | 1 | predictor selection value 1…7 |
    /// | `Se` | 1 | 0 in lossless mode (ignored: nothing depends on it) |
    /// | `Ah`/`Al` | 1 | 0 / point transform Pt |
    private mutating func decodeScan(
        at offset: Int, frame: LJ92FrameHeader, output: UnsafeMutablePointer<UInt16>, rowStride: Int
    ) throws(LJ92Error) -> (marker: JPEGMarker, offset: Int) {
        var segment = try readSegment(.startOfScan)
        var offsets: [Int] = []
        var scanTables: [LJ92DecodingTable] = []
        let predictor: LJ92Predictor
        let pointTransform: Int
        do {
            let count = Int(try segment.read(UInt8.self))
            guard (1...frame.components).contains(count), segment.remainingCount == 2 * count + 3 else {
                throw LJ92Error(.invalidValue, at: offset, "scan of \(count) components in a \(frame.components)")
            }
            for _ in 0..<count {
                let identifier = try segment.read(UInt8.self)
                let destinations = try segment.read(UInt8.self)
                guard let index = frame.componentIDs.firstIndex(of: identifier) else {
                    throw LJ92Error(.invalidValue, at: offset, "the scan names unknown component \(identifier)")
                }
                guard !decoded[index], !offsets.contains(index) else {
                    throw LJ92Error(.invalidValue, at: offset, "component \(identifier) is coded twice")
                }
                // Td selects the table; Ta (the low nibble) names an AC table, which lossless coding has none of.
                let destination = Int(destinations >> 4)
                guard destination <= 3, let definition = tables[destination] else {
                    throw LJ92Error(
                        .missingTable, at: offset, "component \(identifier) uses undefined table \(destination)")
                }
                let table = decodingTables[destination] ?? LJ92DecodingTable(definition)
                decodingTables[destination] = table
                offsets.append(index)
                scanTables.append(table)
            }
            predictor = LJ92Predictor(rawValue: try segment.read(UInt8.self))
            _ = try segment.read(UInt8.self)  // Se: unused in lossless mode.
            // Ah (the high nibble) is meaningless in lossless mode, so only Al is read.
            pointTransform = Int(try segment.read(UInt8.self) & 0x0F)
        } catch {
            throw Self.wrap(error, while: "reading SOS")
        }
        guard predictor.isValid else {
            throw LJ92Error(
                predictor.rawValue == 0 ? .unsupportedProcess : .invalidValue, at: offset,
                "predictor \(predictor) (0 is for hierarchical differential coding only)")
        }
        guard pointTransform < frame.precision else {
            throw LJ92Error(.invalidValue, at: offset, "point transform \(pointTransform) ≥ precision")
        }
        var restartRows = frame.height
        if restartInterval > 0 {
            guard restartInterval % frame.width == 0 else {
                throw LJ92Error(
                    .unsupportedProcess, at: offset,
                    "restart interval \(restartInterval) does not span whole rows of \(frame.width) pixels")
            }
            restartRows = restartInterval / frame.width
        }

        let start = position - bytes.startIndex
        let result: Result<LJ92BitSource, LJ92Error> = bytes.withUnsafeBufferPointer { buffer in
            guard let data = buffer.baseAddress else {
                return .failure(LJ92Error(.truncated, at: position, "no entropy-coded data"))
            }
            let pointers = scanTables.map(\.pointers)
            return offsets.withUnsafeBufferPointer { offsetBuffer in
                pointers.withUnsafeBufferPointer { tableBuffer in
                    guard let offsetBase = offsetBuffer.baseAddress, let tableBase = tableBuffer.baseAddress else {
                        return .failure(LJ92Error(.invalidValue, "empty scan"))
                    }
                    let decoder = LJ92ScanDecoder(
                        width: frame.width, height: frame.height, pixelStride: frame.components,
                        rowStride: rowStride, restartRows: restartRows,
                        initialPrediction: Int32(1) << (frame.precision - pointTransform - 1), output: output,
                        offsets: offsetBase, tables: tableBase,
                        source: LJ92BitSource(data: data, start: start, end: buffer.count))
                    return LJ92Kernel.dispatch(decoder, predictor: predictor, components: offsets.count)
                }
            }
        }
        // Keep the tables alive until the decoder, which reads them through raw pointers, is done.
        withExtendedLifetime(scanTables) {}

        var source: LJ92BitSource
        switch result {
        case .success(let finished): source = finished
        case .failure(let error): throw error.shifted(by: bytes.startIndex)
        }
        for index in offsets {
            decoded[index] = true
            pointTransforms[index] = pointTransform
        }
        guard let code = source.nextMarker() else {
            throw LJ92Error(.truncated, at: bytes.endIndex, "the stream ends after the scan without EOI")
        }
        position = bytes.startIndex + code + 1
        let marker = JPEGMarker(rawValue: bytes[bytes.startIndex + code])
        // The marker's first 0xFF is just before the code byte, or before fill bytes; report the code's neighbour.
        return (marker, bytes.startIndex + code - 1)
    }

    /// An error from a segment parser as an ``LJ92Error``: the cursor's `WireError`s are wrapped, ours pass through.
    private static func wrap(_ error: any Error, while context: String) -> LJ92Error {
        if let error = error as? LJ92Error { return error }
        if let error = error as? WireError { return LJ92Error(error, while: context) }
        return LJ92Error(.invalidValue, "\(context): \(error)")
    }

    /// Shifts each component left by its scan's point transform (T.81 H.2.1: output = decoded × 2^Pt).
    private func undoPointTransforms(frame: LJ92FrameHeader, output: UnsafeMutablePointer<UInt16>, rowStride: Int) {
        for (component, shift) in pointTransforms.enumerated() where shift > 0 {
            for row in 0..<frame.height {
                let line = output + row * rowStride
                var index = component
                while index < frame.samplesPerRow {
                    line[index] = line[index] &<< UInt16(shift)
                    index += frame.components
                }
            }
        }
    }
}
