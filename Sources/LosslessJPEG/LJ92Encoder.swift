import WireFormat

/// Encodes rows of 16-bit samples as one lossless JPEG stream (ITU T.81 process 14, "LJ92"), the payload of a DNG
/// tile or strip with Compression 7 (DNG 1.7 §Compression).
///
/// The input is `rowCount` rows of `samplesPerRow` samples, each row `samplesPerRow / components` pixels of
/// ``components`` interleaved samples. A DNG encoder hands a W×H tile of a 2×2 CFA as rows of W samples with
/// 2 components, so the JPEG frame is W/2 × H and predictor 1 predicts each sample from the same colour two sensor
/// pixels to the left (Adobe's layout, DNG 1.7 p.20: only the total sample count must match the tile).
///
/// The stream is SOI, SOF3, one DHT per Huffman table, DRI when restarts are on, SOS, the entropy-coded data and
/// EOI. Huffman tables are built per stream from the histogram of difference categories (T.81 Annex K.2).
///
/// ```swift
/// let encoder = try LJ92Encoder(precision: 14, components: 2)
/// let jpeg = try encoder.encode(tileSamples, samplesPerRow: 256)
/// ```
public struct LJ92Encoder: Sendable {
    /// Which Huffman tables a stream carries.
    public enum Tables: Hashable, Sendable {
        /// One optimal table per component (table k for component k): the smallest output.
        case optimalPerComponent
        /// One optimal table shared by all components.
        case optimalShared
        /// Tables chosen by the caller: one shared table, or one per component. Encoding throws when the data has
        /// a difference category that the table in use does not code.
        case fixed([LJ92HuffmanTable])
        /// One table per component built from the differences of every `rowStep`-th row (the first row included),
        /// with one count added to every category the precision and predictor can produce, so any difference
        /// stays codable. Pass 1 then computes 1/`rowStep` of the predictions (it still checks every sample
        /// against the precision); on sensor data the output is within a fraction of a percent of
        /// ``optimalPerComponent``. What the DNG encoder uses, with a step of 3: an odd step counts both rows of a
        /// 2-row CFA repeat (in the 2-component layout an even row holds R and G, an odd row G and B), whereas an
        /// even step sees only the even rows, and tiles whose odd rows differ (a blue or yellow patch) come out up to
        /// 21 % larger than with optimal tables.
        case sampledPerComponent(rowStep: Int)

        /// Rows between those pass 1 counts: 1 but for ``sampledPerComponent(rowStep:)``.
        var histogramRowStep: Int {
            if case .sampledPerComponent(let step) = self { return step }
            return 1
        }
    }

    /// Bits per sample P, 2…16 (SOF3 `P`); every input sample must be below 2^P.
    public let precision: Int
    /// Interleaved components per pixel, 1…4 (SOF3 `Nf`).
    public let components: Int
    /// The predictor written to the scan header; DNG readers expect ``LJ92Predictor/left``.
    public let predictor: LJ92Predictor
    /// The Huffman tables to use.
    public let tables: Tables
    /// Rows per restart interval (DRI, with RSTn markers between intervals), or 0 for none. DNG writers do not
    /// use restarts; they exist so decoders can be tested against them.
    public let restartRows: Int

    /// Checks and stores the stream parameters.
    ///
    /// - Throws: ``LJ92Error/Code/invalidInput`` when a parameter is outside the range T.81 allows (precision
    ///   2…16, 1…4 components, predictor 1…7) or fixed tables do not come one shared or one per component.
    public init(
        precision: Int, components: Int, predictor: LJ92Predictor = .left, tables: Tables = .optimalPerComponent,
        restartRows: Int = 0
    ) throws(LJ92Error) {
        guard (2...16).contains(precision) else {
            throw LJ92Error(.invalidInput, "precision \(precision) is outside 2…16 (T.81 B.2.2, lossless)")
        }
        guard (1...4).contains(components) else {
            throw LJ92Error(.invalidInput, "\(components) components; the encoder writes 1…4")
        }
        guard predictor.isValid else {
            throw LJ92Error(.invalidInput, "predictor \(predictor) is not one of 1…7 (T.81 Table H.1)")
        }
        if case .sampledPerComponent(let step) = tables, step < 1 {
            throw LJ92Error(.invalidInput, "histogram row step \(step); 1 or more")
        }
        if case .fixed(let given) = tables, given.count != 1, given.count != components {
            throw LJ92Error(.invalidInput, "\(given.count) fixed tables for \(components) components")
        }
        guard restartRows >= 0 else { throw LJ92Error(.invalidInput, "negative restart interval \(restartRows)") }
        self.precision = precision
        self.components = components
        self.predictor = predictor
        self.tables = tables
        self.restartRows = restartRows
    }

    /// Encodes `rowCount` rows read from `samples`, row `r` starting at `r × rowStride`.
    ///
    /// - Parameters:
    ///   - samplesPerRow: samples in each row, a multiple of ``components``; the frame is
    ///     `samplesPerRow / components` pixels wide.
    ///   - rowCount: rows, which is the frame height; 1…65535.
    ///   - rowStride: distance between row starts, in samples (≥ `samplesPerRow`).
    /// - Returns: the complete stream, SOI to EOI.
    /// - Throws: ``LJ92Error/Code/invalidInput`` when the geometry does not fit the buffer or the JPEG header
    ///   fields, or a sample is not below 2^``precision``.
    public func encode(
        _ samples: UnsafeBufferPointer<UInt16>, samplesPerRow: Int, rowCount: Int, rowStride: Int
    ) throws(LJ92Error) -> [UInt8] {
        var workspace = LJ92EncoderWorkspace()
        let sink = try encode(
            samples, samplesPerRow: samplesPerRow, rowCount: rowCount, rowStride: rowStride, workspace: &workspace
        ) { capacity throws(LJ92Error) in LJ92BitSink(capacity: capacity) }
        return sink.takeBytes()
    }

    /// Encodes like ``encode(_:samplesPerRow:rowCount:rowStride:)`` into a sink that `makeSink` provides once pass 1
    /// has sized the stream (`capacity` bytes, an estimate: the sink grows if the data needs more), with the
    /// scratch tables in `workspace`, which a tile encoder keeps from one tile to the next. Returns the finished
    /// sink; nothing throws once `makeSink` has returned.
    func encode(
        _ samples: UnsafeBufferPointer<UInt16>, samplesPerRow: Int, rowCount: Int, rowStride: Int,
        workspace: inout LJ92EncoderWorkspace, makeSink: (_ capacity: Int) throws(LJ92Error) -> LJ92BitSink
    ) throws(LJ92Error) -> LJ92BitSink {
        let width = try checkGeometry(
            samplesPerRow: samplesPerRow, rowCount: rowCount, rowStride: rowStride, available: samples.count)
        guard let base = samples.baseAddress else { throw LJ92Error(.invalidInput, "empty sample buffer") }
        let input = LJ92EncoderInput(
            base: base, rowStride: rowStride, rowCount: rowCount, samplesPerRow: samplesPerRow,
            restartRows: restartRows == 0 ? rowCount : restartRows, initialPrediction: Int32(1 << (precision - 1)))

        // Pass 1: category histogram (one per component) and the largest sample. The pass counts into two copies
        // per component, alternating, so that runs of one category do not wait on the previous increment's store.
        // With sampled tables it counts every n-th row only, and just ORs the samples of the others.
        let rowStep = tables.histogramRowStep
        workspace.clearHistograms(count: 2 * components * 17)
        let maximum = workspace.histogramCopies.withUnsafeMutableBufferPointer { counts in
            LJ92Kernel.dispatch(
                LJ92HistogramPass(input: input, counts: counts, rowStep: rowStep), predictor: predictor,
                components: components)
        }
        var histogram = [Int](repeating: 0, count: components * 17)
        for copy in 0..<(2 * components) {
            for category in 0...16 {
                histogram[(copy % components) * 17 + category] += workspace.histogramCopies[copy * 17 + category]
            }
        }
        guard maximum >> precision == 0 else {
            throw LJ92Error(.invalidInput, "a sample is \(maximum), above the \(precision)-bit maximum")
        }
        if rowStep > 1 {
            // Rows that were not counted may hold any difference: every category up to the largest possible one
            // gets a code. Predictors 1–3 give differences below 2^P in magnitude (category ≤ P); 4–7 can predict
            // outside 0…2^P − 1, up to one category more; 16 is the ceiling (differences are taken modulo 2^16).
            let largestCategory = min(16, predictor.rawValue <= 3 ? precision : precision + 1)
            for component in 0..<components {
                for category in 0...largestCategory { histogram[component * 17 + category] += 1 }
            }
        }

        let huffmanTables = try chooseTables(histogram: histogram)
        let codeTable = try codeTable(for: huffmanTables, histogram: histogram)

        // Size the output from the number of coded bits (exact, or scaled from the rows counted); stuffing (about
        // 1 byte in 256 on noisy data) and restart markers are covered by the sink's per-row reserve, which also
        // grows the buffer when a sampled estimate falls short.
        var codedBits = 0
        for component in 0..<components {
            for category in 0...16 {
                let entry = codeTable[component * 17 + category]
                codedBits += histogram[component * 17 + category] * LJ92CodeEntry.length(entry)
            }
        }
        codedBits *= rowStep
        let restartCount = (rowCount - 1) / input.restartRows
        let header = headers(width: width, height: rowCount, tables: huffmanTables)
        var sink = try makeSink(
            header.count + 1024 + codedBits / 8 + codedBits / 512 + samplesPerRow * 8 + restartCount * 4)
        sink.appendRaw(header)

        // Pass 2: entropy coding.
        LJ92EncodingPass.fillDirectTable(&workspace.directTable, codes: codeTable, components: components)
        sink = codeTable.withUnsafeBufferPointer { entries in
            workspace.directTable.withUnsafeBufferPointer { direct in
                // `components` ≥ 1, so both tables are non-empty and have base addresses.
                guard let codes = entries.baseAddress, let directBase = direct.baseAddress else { return sink }
                let pass = LJ92EncodingPass(
                    input: input, codes: codes, direct: directBase + LJ92EncodingPass.directReach, sink: sink)
                return LJ92Kernel.dispatch(pass, predictor: predictor, components: components)
            }
        }
        sink.flushWithPadding()
        sink.appendRaw([0xFF, JPEGMarker.endOfImage.rawValue])
        return sink
    }

    /// Encodes `samples` as contiguous rows of `samplesPerRow` samples; the row count is
    /// `samples.count / samplesPerRow`, which must divide exactly.
    public func encode(_ samples: [UInt16], samplesPerRow: Int) throws(LJ92Error) -> [UInt8] {
        guard samplesPerRow > 0, samples.count % samplesPerRow == 0 else {
            throw LJ92Error(.invalidInput, "\(samples.count) samples do not make rows of \(samplesPerRow)")
        }
        return try samples.withUnsafeBufferPointer { buffer throws(LJ92Error) in
            try encode(
                buffer, samplesPerRow: samplesPerRow, rowCount: samples.count / samplesPerRow,
                rowStride: samplesPerRow)
        }
    }

    /// Validates the geometry and returns the frame width in pixels.
    private func checkGeometry(
        samplesPerRow: Int, rowCount: Int, rowStride: Int, available: Int
    ) throws(LJ92Error) -> Int {
        guard samplesPerRow > 0, samplesPerRow % components == 0 else {
            throw LJ92Error(.invalidInput, "\(samplesPerRow) samples per row is not a multiple of \(components)")
        }
        let width = samplesPerRow / components
        // SOF3 stores X and Y in 16 bits; Y = 0 would mean "defined by DNL", which rawcap never writes.
        guard width <= 65535, (1...65535).contains(rowCount) else {
            throw LJ92Error(.invalidInput, "frame \(width)×\(rowCount) does not fit SOF3's 16-bit fields")
        }
        guard rowStride >= samplesPerRow else {
            throw LJ92Error(.invalidInput, "row stride \(rowStride) is shorter than a row of \(samplesPerRow)")
        }
        let (span, overflow) = (rowCount - 1).multipliedReportingOverflow(by: rowStride)
        guard !overflow, span <= available - samplesPerRow else {
            throw LJ92Error(.invalidInput, "\(rowCount) rows at stride \(rowStride) overrun \(available) samples")
        }
        if restartRows > 0 {
            let (interval, tooLarge) = restartRows.multipliedReportingOverflow(by: width)
            guard !tooLarge, interval <= 65535 else {
                throw LJ92Error(.invalidInput, "restart interval of \(restartRows) rows × \(width) exceeds 65535")
            }
        }
        return width
    }

    private func chooseTables(histogram: [Int]) throws(LJ92Error) -> [LJ92HuffmanTable] {
        switch tables {
        case .optimalPerComponent, .sampledPerComponent:
            return (0..<components).map { component in
                LJ92HuffmanTable.optimal(forCategoryCounts: Array(histogram[component * 17..<component * 17 + 17]))
            }
        case .optimalShared:
            let total = (0...16).map { category in
                (0..<components).reduce(0) { $0 + histogram[$1 * 17 + category] }
            }
            return [LJ92HuffmanTable.optimal(forCategoryCounts: total)]
        case .fixed(let given):
            return given
        }
    }

    /// A ``LJ92CodeEntry`` per component and category (17 per component).
    private func codeTable(for huffmanTables: [LJ92HuffmanTable], histogram: [Int]) throws(LJ92Error) -> [UInt64] {
        var entries = [UInt64](repeating: 0, count: components * 17)
        for component in 0..<components {
            let codes = huffmanTables[huffmanTables.count == 1 ? 0 : component].codesByCategory
            for category in 0...16 {
                guard let code = codes[category] else {
                    if histogram[component * 17 + category] > 0 {
                        throw LJ92Error(
                            .invalidInput, "component \(component) has category \(category), which its table lacks")
                    }
                    continue
                }
                entries[component * 17 + category] = LJ92CodeEntry.make(
                    code: code.code, length: code.length, category: category)
            }
        }
        return entries
    }

    /// SOI, SOF3, DHT per table, DRI when restarts are on, and SOS (T.81 B.2.1–B.2.4).
    private func headers(width: Int, height: Int, tables huffmanTables: [LJ92HuffmanTable]) -> [UInt8] {
        var writer = WireWriter(byteOrder: .big, capacity: 256)
        writer.write(UInt8(0xFF))
        writer.write(JPEGMarker.startOfImage.rawValue)

        // Frame header (B.2.2): Lf, P, Y, X, Nf, then per component Ci, Hi/Vi = 1/1, Tqi = 0.
        writer.write(UInt8(0xFF))
        writer.write(JPEGMarker.startOfFrameLossless.rawValue)
        writer.write(UInt16(8 + 3 * components))
        writer.write(UInt8(precision))
        writer.write(UInt16(height))
        writer.write(UInt16(width))
        writer.write(UInt8(components))
        for component in 0..<components {
            writer.write(UInt8(component))
            writer.write(UInt8(0x11))
            writer.write(UInt8(0))
        }

        // One DHT segment per table (B.2.4.2): Tc = 0 (DC/lossless), Th = table number, then BITS and HUFFVAL.
        // Single-table segments are what the widest range of raw decoders has been seen to accept.
        for (number, table) in huffmanTables.enumerated() {
            writer.write(UInt8(0xFF))
            writer.write(JPEGMarker.defineHuffmanTables.rawValue)
            writer.write(UInt16(2 + 1 + 16 + table.values.count))
            writer.write(UInt8(number))
            writer.write(bytes: table.codeCounts)
            writer.write(bytes: table.values)
        }

        if restartRows > 0 {
            writer.write(UInt8(0xFF))
            writer.write(JPEGMarker.defineRestartInterval.rawValue)
            writer.write(UInt16(4))
            writer.write(UInt16(restartRows * width))
        }

        // Scan header (B.2.3): Ls, Ns, per component Csj and Tdj/Taj, then Ss = predictor, Se = 0, Ah/Al = 0.
        writer.write(UInt8(0xFF))
        writer.write(JPEGMarker.startOfScan.rawValue)
        writer.write(UInt16(6 + 2 * components))
        writer.write(UInt8(components))
        for component in 0..<components {
            writer.write(UInt8(component))
            writer.write(UInt8((huffmanTables.count == 1 ? 0 : component) << 4))
        }
        writer.write(predictor.rawValue)
        writer.write(UInt8(0))
        writer.write(UInt8(0))
        return writer.bytes
    }
}

/// Scratch tables the encoder fills for every stream, kept by a caller that encodes many (each tile worker keeps
/// one), so that they are allocated once rather than per tile.
struct LJ92EncoderWorkspace {
    /// Pass 1's category counts: two copies of 17 per component.
    var histogramCopies: [Int] = []
    /// Pass 2's direct code table (``LJ92EncodingPass/fillDirectTable(_:codes:components:)``).
    var directTable: [UInt64] = []

    /// Zeroes the first `count` histogram counts, growing the array when needed.
    mutating func clearHistograms(count: Int) {
        if histogramCopies.count != count {
            histogramCopies = [Int](repeating: 0, count: count)
        } else {
            histogramCopies.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
    }
}

/// Where the encoder's passes read from: checked geometry over the caller's buffer.
struct LJ92EncoderInput {
    /// The first sample of the first row.
    let base: UnsafePointer<UInt16>
    /// Distance between row starts, in samples.
    let rowStride: Int
    /// Rows, which is the frame height.
    let rowCount: Int
    /// Samples per row: frame width × components.
    let samplesPerRow: Int
    /// Rows per restart interval; equal to `rowCount` without restarts.
    let restartRows: Int
    /// 2^(P−1), the prediction for the first sample of a scan or restart interval (T.81 H.1.2.1).
    let initialPrediction: Int32
}
