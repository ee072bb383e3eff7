/// Decodes the entropy-coded data of one scan into the output rows (T.81 H.2: Huffman decoding of the
/// differences, then reconstruction with the predictor of H.1.2.1).
///
/// Generic over the predictor and the number of components in the scan, so the per-sample work has no branches
/// on either. Each scan component has an output position within the frame's interleaved pixel (`offsets`) and a
/// decoding table. Samples are written before the point transform is undone; the caller shifts them afterwards.
struct LJ92ScanDecoder: LJ92KernelVisitor {
    /// The frame width in pixels (MCUs per row).
    let width: Int
    /// The frame height in rows.
    let height: Int
    /// Samples per pixel in the output (the frame's component count).
    let pixelStride: Int
    /// Distance between output rows, in samples.
    let rowStride: Int
    /// Rows per restart interval (the frame height when there are none).
    let restartRows: Int
    /// 2^(P−Pt−1), the prediction for the first sample of the scan and of each restart interval.
    let initialPrediction: Int32
    let output: UnsafeMutablePointer<UInt16>
    /// For each scan component, its position within an output pixel.
    let offsets: UnsafePointer<Int>
    /// For each scan component, its decoding table.
    let tables: UnsafePointer<LJ92DecodingTable.Pointers>
    /// The bit source positioned at the first byte after the scan header.
    let source: LJ92BitSource

    func visit<Predictor: LJ92PredictorKind, Components: LJ92ComponentCount>(
        _: Predictor.Type, _: Components.Type
    ) -> Result<LJ92BitSource, LJ92Error> {
        let componentCount = Components.count
        var source = self.source
        var restartNumber = 0
        for row in 0..<height {
            let startsInterval = row % restartRows == 0
            if startsInterval && row > 0 {
                // T.81 E.2.4 and F.2.2.5: the interval ends byte-aligned with RSTm, m counting 0…7 cyclically.
                let expected = JPEGMarker.restart(restartNumber)
                guard let code = source.nextMarker() else {
                    return .failure(LJ92Error(.truncated, at: source.position, "the data ends before \(expected)"))
                }
                guard source.data[code] == expected.rawValue else {
                    let found = JPEGMarker(rawValue: source.data[code])
                    return .failure(LJ92Error(.unexpectedMarker, at: code - 1, "expected \(expected), found \(found)"))
                }
                restartNumber += 1
            }
            let current = output + row * rowStride
            let above = current - rowStride
            // First pixel: 2^(P−Pt−1) at the start of an interval, Rb otherwise.
            for component in 0..<componentCount {
                let position = offsets[component]
                let prediction = startsInterval ? initialPrediction : Int32(above[position])
                let difference = Self.decodeDifference(tables[component], &source)
                current[position] = UInt16(truncatingIfNeeded: prediction &+ difference)
            }
            var pixel = 1
            if startsInterval {
                // The first row of an interval uses Ra throughout (T.81 H.1.2.1).
                while pixel < width {
                    let base = pixel &* pixelStride
                    for component in 0..<componentCount {
                        let position = base &+ offsets[component]
                        let difference = Self.decodeDifference(tables[component], &source)
                        current[position] = UInt16(
                            truncatingIfNeeded: Int32(current[position &- pixelStride]) &+ difference)
                    }
                    pixel &+= 1
                }
            } else {
                while pixel < width {
                    let base = pixel &* pixelStride
                    for component in 0..<componentCount {
                        let position = base &+ offsets[component]
                        let prediction = Predictor.predict(
                            ra: Int32(current[position &- pixelStride]), rb: Int32(above[position]),
                            rc: Int32(above[position &- pixelStride]))
                        let difference = Self.decodeDifference(tables[component], &source)
                        current[position] = UInt16(truncatingIfNeeded: prediction &+ difference)
                    }
                    pixel &+= 1
                }
            }
            if let offset = source.invalidCodeOffset {
                return .failure(LJ92Error(.invalidCode, at: offset, "bits in row \(row) match no Huffman code"))
            }
            if source.hasOverrun {
                return .failure(
                    LJ92Error(.truncated, at: source.position, "the entropy-coded data ends inside row \(row)"))
            }
        }
        return .success(source)
    }

    /// Decodes one difference: Huffman code, then extra bits (T.81 F.2.2.1, Figures F.12 and F.16; H.1.2.2).
    @inline(__always)
    static func decodeDifference(_ table: LJ92DecodingTable.Pointers, _ source: inout LJ92BitSource) -> Int32 {
        if source.cacheBits < 32 { source.refill() }
        let entry = table.lookup[Int(truncatingIfNeeded: source.peek(LJ92DecodingTable.lookupBits))]
        if entry & LJ92DecodingTable.completeFlag != 0 {
            source.consume(Int(truncatingIfNeeded: entry & 0x1F))
            return Int32(truncatingIfNeeded: entry &>> 16)
        }
        return decodeSlowly(entry, table, &source)
    }

    /// Codes whose extra bits do not fit the lookup, and codes longer than the lookup.
    @inline(never)
    static func decodeSlowly(
        _ entry: UInt32, _ table: LJ92DecodingTable.Pointers, _ source: inout LJ92BitSource
    ) -> Int32 {
        var category: Int
        if entry & LJ92DecodingTable.codeOnlyFlag != 0 {
            source.consume(Int(entry & 0x1F))
            category = Int((entry &>> 8) & 0x1F)
        } else {
            // T.81 Figure F.16 from the first length the lookup does not cover.
            var length = LJ92DecodingTable.lookupBits + 1
            while true {
                guard length <= 16 else {
                    if source.invalidCodeOffset == nil { source.invalidCodeOffset = source.position }
                    return 0
                }
                let code = Int32(source.peek(length))
                if code <= table.maxCode[length] {
                    category = Int(table.values[Int(code &+ table.symbolOffset[length])])
                    source.consume(length)
                    break
                }
                length += 1
            }
        }
        if category == 0 { return 0 }
        if category == 16 { return 32768 }
        let extra = Int(source.peek(category))
        source.consume(category)
        return LJ92DecodingTable.difference(category: category, extra: extra)
    }
}
