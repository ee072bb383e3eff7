/// Pass 2: writes each difference as its category's Huffman code followed by the extra bits (T.81 H.1.2.2, F.1.2.1),
/// with RSTn markers between restart intervals. Returns the sink, which may have moved its buffer.
///
/// Two tricks keep this loop short. Differences within ±``directReach`` (nearly all of them in sensor data) look up
/// their complete bits and length in a per-stream table instead of computing category and extra bits. And samples
/// go out in pairs: both codes are joined and written with one store, which halves the bit-writer work (a pair is
/// at most 62 bits; the rare pair over 56 bits, only possible with very long codes, is written singly).
struct LJ92EncodingPass: LJ92KernelVisitor {
    /// Largest difference magnitude the direct table covers: categories 0…10, 16 KiB per component.
    static let directReach = 1023
    /// Entries of the direct table per component.
    static let directStride = 2 * directReach + 1

    /// The samples.
    let input: LJ92EncoderInput
    /// `LJ92CodeEntry` values: 17 per component.
    let codes: UnsafePointer<UInt64>
    /// Component 0's direct table, centred on difference 0; component k's is ``directStride`` × k further.
    let direct: UnsafePointer<UInt64>
    /// The output, with the headers already written.
    let sink: LJ92BitSink

    /// For each component and each difference in ±``directReach``: the bits (low 32) and length (high 32).
    ///
    /// Built once per stream (every DNG tile), so it is filled category by category rather than difference by
    /// difference: a magnitude m of category c is sent as m itself in the c extra bits, and −m as the complement
    /// of m (m − 1 in one's complement, T.81 F.1.2.1.1), which is what ``LJ92CodeEntry/bits(_:difference:)``
    /// computes one difference at a time. Every entry is written, so `table` may hold an earlier stream's entries
    /// (a tile worker keeps one table for all its tiles); it is reallocated only for another component count.
    static func fillDirectTable(_ table: inout [UInt64], codes: [UInt64], components: Int) {
        if table.count != components * directStride {
            table = [UInt64](repeating: 0, count: components * directStride)
        }
        table.withUnsafeMutableBufferPointer { table in
            guard let base = table.baseAddress else { return }
            for component in 0..<components {
                let centre = base + component * directStride + directReach
                var first = 1
                for category in 0...10 {
                    let entry = codes[component * 17 + category]
                    let code = (entry & 0xFFFF_FFFF) | (UInt64(LJ92CodeEntry.length(entry)) << 32)
                    let mask = (entry &>> 32) & 0xFFFF
                    if category == 0 {
                        centre[0] = code
                        continue
                    }
                    let last = first * 2 - 1
                    for magnitude in first...last {
                        let bits = UInt64(magnitude)
                        centre[magnitude] = code | (bits & mask)
                        centre[-magnitude] = code | (~bits & mask)
                    }
                    first = last + 1
                }
            }
        }
    }

    func visit<Predictor: LJ92PredictorKind, Components: LJ92ComponentCount>(
        _: Predictor.Type, _: Components.Type
    ) -> LJ92BitSink {
        let componentCount = Components.count
        // Locals rather than `self` fields: the output stores could alias `self` as far as the optimiser knows.
        let tables = Tables(codes: codes, direct: direct)
        var sink = self.sink
        var restartNumber = 0
        for row in 0..<input.rowCount {
            let current = input.base + row * input.rowStride
            let startsInterval = row % input.restartRows == 0
            if startsInterval && row > 0 {
                sink.flushWithPadding()
                sink.appendRaw([0xFF, JPEGMarker.restart(restartNumber).rawValue])
                restartNumber += 1
            }
            // A sample costs at most 31 bits; with stuffing, at most 8 bytes.
            sink.reserve(input.samplesPerRow * 8)
            // The row loop works on a copy whose address never escapes, so its fields live in registers.
            var writer = sink
            let above = current - input.rowStride
            for component in 0..<componentCount {
                let prediction = startsInterval ? input.initialPrediction : Int32(above[component])
                let (bits, length) = tables.code(Int32(current[component]) &- prediction, component: component)
                writer.write(bits, length: length)
            }
            // The rest of the row as one flat loop over pairs of samples; sample `position` belongs to component
            // `position % componentCount`, tracked incrementally.
            var component = 0
            var position = componentCount
            let end = input.samplesPerRow
            if startsInterval {
                while position &+ 1 < end {
                    let first = Int32(current[position]) &- Int32(current[position &- componentCount])
                    let second = Int32(current[position &+ 1]) &- Int32(current[position &+ 1 &- componentCount])
                    tables.writePair(first, second, &component, componentCount, &writer)
                    position &+= 2
                }
                if position < end {
                    let difference = Int32(current[position]) &- Int32(current[position &- componentCount])
                    let (bits, length) = tables.code(difference, component: component)
                    writer.write(bits, length: length)
                }
            } else {
                while position &+ 1 < end {
                    let next = position &+ 1
                    let first =
                        Int32(current[position])
                        &- Predictor.predict(current, above, at: position, componentStride: componentCount)
                    let second =
                        Int32(current[next])
                        &- Predictor.predict(current, above, at: next, componentStride: componentCount)
                    tables.writePair(first, second, &component, componentCount, &writer)
                    position &+= 2
                }
                if position < end {
                    let difference =
                        Int32(current[position])
                        &- Predictor.predict(current, above, at: position, componentStride: componentCount)
                    let (bits, length) = tables.code(difference, component: component)
                    writer.write(bits, length: length)
                }
            }
            sink = writer
        }
        return sink
    }

    /// The two code tables, held in registers by the loop.
    private struct Tables {
        let codes: UnsafePointer<UInt64>
        let direct: UnsafePointer<UInt64>

        /// The bits and length that code `difference` for `component`.
        @inline(__always)
        func code(_ difference: Int32, component: Int) -> (UInt64, Int) {
            let (category, signed) = LJ92Kernel.category(ofDifference: difference)
            let index = Int(truncatingIfNeeded: signed)
            if UInt(bitPattern: index &+ directReach) < UInt(directStride) {
                let entry = direct[component &* directStride &+ index]
                return (entry & 0xFFFF_FFFF, Int(truncatingIfNeeded: entry &>> 32))
            }
            let entry = codes[component &* 17 &+ category]
            return (LJ92CodeEntry.bits(entry, difference: signed), LJ92CodeEntry.length(entry))
        }

        @inline(__always)
        func writePair(
            _ first: Int32, _ second: Int32, _ component: inout Int, _ componentCount: Int,
            _ writer: inout LJ92BitSink
        ) {
            let firstComponent = component
            var secondComponent = component &+ 1
            if secondComponent == componentCount { secondComponent = 0 }
            component = secondComponent &+ 1
            if component == componentCount { component = 0 }
            let (firstBits, firstLength) = code(first, component: firstComponent)
            let (secondBits, secondLength) = code(second, component: secondComponent)
            let length = firstLength &+ secondLength
            if length <= 56 {
                writer.write((firstBits &<< UInt64(truncatingIfNeeded: secondLength)) | secondBits, length: length)
            } else {
                writer.write(firstBits, length: firstLength)
                writer.write(secondBits, length: secondLength)
            }
        }
    }
}

/// How the encoder stores the code of one category: the Huffman code shifted left by the number of extra bits
/// (bits 0…31), the mask of the extra bits (bits 32…47) and the total length (bits 48…55). Category 16 has no
/// extra bits (T.81 H.1.2.2), so its mask is 0.
enum LJ92CodeEntry {
    static func make(code: UInt16, length: Int, category: Int) -> UInt64 {
        let extra = category == 16 ? 0 : category
        return (UInt64(code) << UInt64(extra)) | (((UInt64(1) << UInt64(extra)) - 1) << 32)
            | (UInt64(length + extra) << 48)
    }

    /// The total number of bits written for this category.
    @inline(__always)
    static func length(_ entry: UInt64) -> Int { Int(truncatingIfNeeded: entry &>> 48) }

    /// The bits written for `difference`: code then extra bits. Negative differences are sent as difference − 1
    /// in the extra bits (T.81 F.1.2.1.1); adding the sign (−1 or 0) does that without a branch.
    @inline(__always)
    static func bits(_ entry: UInt64, difference: Int32) -> UInt64 {
        let extra = UInt64(truncatingIfNeeded: UInt32(bitPattern: difference &+ (difference >> 31)))
        return (entry & 0xFFFF_FFFF) | (extra & ((entry &>> 32) & 0xFFFF))
    }
}
