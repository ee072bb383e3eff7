/// The encoder's pass 1: counts the difference categories of each component, from which T.81 K.2 builds the
/// optimal Huffman tables, and returns the largest sample (for the range check against the precision).
///
/// The predictions are exactly those of pass 2 and of the decoder (T.81 H.1.2.1): 2^(P−1) for the first sample of
/// a scan or restart interval, Ra along its first row, Rb down the first column, the selected predictor elsewhere.
struct LJ92HistogramPass: LJ92KernelVisitor {
    /// The samples.
    let input: LJ92EncoderInput
    /// Two histograms of 17 categories per component, copy k for component k mod count. Consecutive samples cycle
    /// through all copies, so a run of one category does not wait on the previous increment's store.
    let counts: UnsafeMutableBufferPointer<Int>
    /// Rows between those counted (1: every row). The rows in between are only checked for their largest sample.
    var rowStep = 1

    func visit<Predictor: LJ92PredictorKind, Components: LJ92ComponentCount>(
        _: Predictor.Type, _: Components.Type
    ) -> Int {
        let componentCount = Components.count
        guard let histograms = counts.baseAddress else { return 0 }
        let lastHistogram = histograms + (2 &* componentCount &- 1) &* 17
        var largest: UInt16 = 0
        for row in 0..<input.rowCount {
            let current = input.base + row * input.rowStride
            if row % rowStep != 0 {
                largest |= Self.orOfSamples(current, count: input.samplesPerRow)
                continue
            }
            let startsInterval = row % input.restartRows == 0
            let above = current - input.rowStride
            for component in 0..<componentCount {
                let sample = current[component]
                largest |= sample
                let prediction = startsInterval ? input.initialPrediction : Int32(above[component])
                let category = LJ92Kernel.category(ofDifference: Int32(sample) &- prediction).category
                histograms[component &* 17 &+ category] &+= 1
            }
            // Chunks of 2 × componentCount samples touch each histogram copy once, at fixed offsets (the inner loop
            // unrolls); the remainder cycles through the copies.
            let chunk = 2 &* componentCount
            var position = componentCount
            let end = input.samplesPerRow
            if startsInterval {
                while position &+ chunk <= end {
                    for copy in 0..<chunk {
                        let sample = current[position &+ copy]
                        largest |= sample
                        let difference = Int32(sample) &- Int32(current[position &+ copy &- componentCount])
                        histograms[copy &* 17 &+ LJ92Kernel.category(ofDifference: difference).category] &+= 1
                    }
                    position &+= chunk
                }
            } else {
                while position &+ chunk <= end {
                    for copy in 0..<chunk {
                        let sample = current[position &+ copy]
                        largest |= sample
                        let prediction = Predictor.predict(
                            current, above, at: position &+ copy, componentStride: componentCount)
                        histograms[
                            copy &* 17 &+ LJ92Kernel.category(ofDifference: Int32(sample) &- prediction).category] &+= 1
                    }
                    position &+= chunk
                }
            }
            var histogram = histograms
            while position < end {
                let sample = current[position]
                largest |= sample
                let prediction =
                    startsInterval
                    ? Int32(current[position &- componentCount])
                    : Predictor.predict(current, above, at: position, componentStride: componentCount)
                histogram[LJ92Kernel.category(ofDifference: Int32(sample) &- prediction).category] &+= 1
                histogram = histogram == lastHistogram ? histograms : histogram + 17
                position &+= 1
            }
        }
        return Int(largest)
    }

    /// The OR of `count` samples, which has a bit above the precision exactly when a sample does: 16 samples per
    /// step in one vector register (the compiler turned the scalar loop into lane-by-lane inserts).
    @inline(__always)
    static func orOfSamples(_ row: UnsafePointer<UInt16>, count: Int) -> UInt16 {
        let bytes = UnsafeRawPointer(row)
        var vector = SIMD16<UInt16>()
        var index = 0
        while index &+ 16 <= count {
            vector |= bytes.loadUnaligned(fromByteOffset: index &* 2, as: SIMD16<UInt16>.self)
            index &+= 16
        }
        var result: UInt16 = 0
        for lane in 0..<16 { result |= vector[lane] }
        while index < count {
            result |= row[index]
            index &+= 1
        }
        return result
    }

}
