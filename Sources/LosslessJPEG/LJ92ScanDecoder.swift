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
    /// The first sample of the frame's first row in the caller's buffer.
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
        // Everything the loop reads, as locals: the optimiser then keeps the bit source in registers (nothing
        // takes its address) and selects each component's table at compile time.
        let scan = ScanComponents(tables: tables, offsets: offsets, count: Components.count)
        let pixelStride = self.pixelStride
        let width = self.width
        let initialPrediction = self.initialPrediction
        var source = self.source
        var restartNumber = 0
        for row in 0..<height {
            let startsInterval = row % restartRows == 0
            if startsInterval && row > 0 {
                // T.81 E.2.4 and F.2.2.5: the interval ends byte-aligned with RSTm, m counting 0…7 cyclically.
                let expected = JPEGMarker.restart(restartNumber)
                // Through a copy, so that `source` itself never has its address taken.
                var resynchronised = source
                let marker = resynchronised.nextMarker()
                source = resynchronised
                guard let code = marker else {
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
            if startsInterval {
                // The first row of an interval: 2^(P−Pt−1) for the first pixel, then Ra (T.81 H.1.2.1).
                Components.forEach { component in
                    let (table, offset) = scan[component]
                    let difference = Self.decodeDifference(table, &source)
                    current[offset] = UInt16(truncatingIfNeeded: initialPrediction &+ difference)
                }
                var base = pixelStride
                for _ in 1..<max(width, 1) {
                    Components.forEach { component in
                        let (table, offset) = scan[component]
                        let position = base &+ offset
                        let difference = Self.decodeDifference(table, &source)
                        current[position] = UInt16(
                            truncatingIfNeeded: Int32(current[position &- pixelStride]) &+ difference)
                    }
                    base &+= pixelStride
                }
            } else {
                // Other rows: Rb for the first pixel, then the scan's predictor.
                Components.forEach { component in
                    let (table, offset) = scan[component]
                    let difference = Self.decodeDifference(table, &source)
                    current[offset] = UInt16(truncatingIfNeeded: Int32(above[offset]) &+ difference)
                }
                var base = pixelStride
                for _ in 1..<max(width, 1) {
                    Components.forEach { component in
                        let (table, offset) = scan[component]
                        let position = base &+ offset
                        let prediction = Predictor.predict(
                            ra: Int32(current[position &- pixelStride]), rb: Int32(above[position]),
                            rc: Int32(above[position &- pixelStride]))
                        let difference = Self.decodeDifference(table, &source)
                        current[position] = UInt16(truncatingIfNeeded: prediction &+ difference)
                    }
                    base &+= pixelStride
                }
            }
            if source.invalidCodeOffset >= 0 {
                return .failure(
                    LJ92Error(
                        .invalidCode, at: source.invalidCodeOffset, "bits in row \(row) match no Huffman code"))
            }
            if source.hasOverrun {
                return .failure(
                    LJ92Error(.truncated, at: source.position, "the entropy-coded data ends inside row \(row)"))
            }
        }
        return .success(source)
    }

    /// The scan's components as plain values: up to four tables and output offsets, picked by a constant index.
    struct ScanComponents {
        let table0, table1, table2, table3: LJ92DecodingTable.Pointers
        let offset0, offset1, offset2, offset3: Int

        init(tables: UnsafePointer<LJ92DecodingTable.Pointers>, offsets: UnsafePointer<Int>, count: Int) {
            table0 = tables[0]
            table1 = tables[min(1, count - 1)]
            table2 = tables[min(2, count - 1)]
            table3 = tables[min(3, count - 1)]
            offset0 = offsets[0]
            offset1 = offsets[min(1, count - 1)]
            offset2 = offsets[min(2, count - 1)]
            offset3 = offsets[min(3, count - 1)]
        }

        @inline(__always)
        subscript(component: Int) -> (LJ92DecodingTable.Pointers, Int) {
            switch component {
            case 0: (table0, offset0)
            case 1: (table1, offset1)
            case 2: (table2, offset2)
            default: (table3, offset3)
            }
        }
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
        let (difference, consumed) = decodeSlowly(entry, table, cache: source.cache)
        guard consumed > 0 else {
            if source.invalidCodeOffset < 0 { source.invalidCodeOffset = source.position }
            return 0
        }
        source.consume(consumed)
        return difference
    }

    /// Codes whose extra bits do not fit the lookup, and codes longer than the lookup, read from the next bits
    /// (`cache`, at least 32 of them loaded). Returns the difference and the bits it takes, or 0 bits when no code
    /// matches. A pure function of its arguments, so calling it does not pin the bit source in memory.
    @inline(never)
    static func decodeSlowly(
        _ entry: UInt32, _ table: LJ92DecodingTable.Pointers, cache: UInt64
    ) -> (difference: Int32, consumed: Int) {
        var category: Int
        var length: Int
        if entry & LJ92DecodingTable.codeOnlyFlag != 0 {
            length = Int(entry & 0x1F)
            category = Int((entry &>> 8) & 0x1F)
        } else {
            // T.81 Figure F.16 from the first length the lookup does not cover.
            length = LJ92DecodingTable.lookupBits + 1
            while true {
                guard length <= 16 else { return (0, 0) }
                let code = Int32(truncatingIfNeeded: cache &>> UInt64(64 &- length))
                if code <= table.maxCode[length] {
                    category = Int(table.values[Int(code &+ table.symbolOffset[length])])
                    break
                }
                length += 1
            }
        }
        if category == 0 { return (0, length) }
        if category == 16 { return (32768, length) }
        let extra = Int(truncatingIfNeeded: (cache &<< UInt64(length)) &>> UInt64(64 &- category))
        return (LJ92DecodingTable.difference(category: category, extra: extra), length &+ category)
    }
}
