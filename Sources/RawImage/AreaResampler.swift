/// Downscaling of interleaved RGB float images with an area (box) filter: every output pixel is the mean of the
/// input area it covers, partial pixels at its edges weighted by the fraction covered. Separable: columns first,
/// then rows. Used on linear-light values, so averaging is physically right.
enum AreaResampler {
    /// Coverage weights for one output index: the first input index and the weight of each input it overlaps.
    struct Footprint {
        let start: Int
        let weights: [Float]
    }

    /// Footprints for resampling `inputCount` samples to `outputCount` (≤ inputCount); weights sum to 1.
    static func footprints(from inputCount: Int, to outputCount: Int) -> [Footprint] {
        let scale = Double(inputCount) / Double(outputCount)
        return (0..<outputCount).map { index in
            let begin = Double(index) * scale
            let end = Double(index + 1) * scale
            let first = Int(begin.rounded(.down))
            let last = min(inputCount - 1, Int(end.rounded(.up)) - 1)
            var weights: [Float] = []
            for input in first...max(first, last) {
                let overlap = min(end, Double(input + 1)) - max(begin, Double(input))
                weights.append(Float(max(overlap, 0) / scale))
            }
            return Footprint(start: first, weights: weights)
        }
    }

    /// `pixels` (`width × height × 3`) resampled to `outWidth × outHeight`; returned unchanged when the size
    /// already matches. Output sizes larger than the input are clamped to it (no upscaling).
    static func resample(_ pixels: [Float], width: Int, height: Int, to outWidth: Int, _ outHeight: Int) -> [Float] {
        let targetWidth = min(max(outWidth, 1), width)
        let targetHeight = min(max(outHeight, 1), height)
        if targetWidth == width && targetHeight == height { return pixels }
        let columns = footprints(from: width, to: targetWidth)
        let rows = footprints(from: height, to: targetHeight)

        // Pass 1: each input row → targetWidth columns. The column footprints are flattened into plain arrays (first
        // input, then the weights of all columns back to back), so the inner loop reads no array headers.
        let columnStarts = columns.map(\.start)
        var total = 0
        let weightEnds = columns.map { footprint in
            total += footprint.weights.count
            return total
        }
        let columnWeights = columns.flatMap(\.weights)
        let horizontalCount = targetWidth * height * 3
        let horizontal = [Float](unsafeUninitializedCapacity: horizontalCount) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = UnsafeSendablePointer(base)
            pixels.withUnsafeBufferPointer { input in
                guard let inputBase = input.baseAddress else { return }
                let source = UnsafeSendableReadPointer(inputBase)
                Parallel.forEachChunk(of: height, minimumChunk: 32) { range in
                    columnStarts.withUnsafeBufferPointer { starts in
                        weightEnds.withUnsafeBufferPointer { ends in
                            columnWeights.withUnsafeBufferPointer { weights in
                                for row in range {
                                    let line = source.base + row * width * 3
                                    let out = output.base + row * targetWidth * 3
                                    var weightIndex = 0
                                    for column in 0..<targetWidth {
                                        var sum: (Float, Float, Float) = (0, 0, 0)
                                        var index = starts[column] * 3
                                        while weightIndex < ends[column] {
                                            let weight = weights[weightIndex]
                                            sum.0 += weight * line[index]
                                            sum.1 += weight * line[index + 1]
                                            sum.2 += weight * line[index + 2]
                                            index += 3
                                            weightIndex += 1
                                        }
                                        (out[column * 3], out[column * 3 + 1], out[column * 3 + 2]) = sum
                                    }
                                }
                            }
                        }
                    }
                }
            }
            initialized = horizontalCount
        }
        // Pass 2: rows.
        let rowLength = targetWidth * 3
        let count = rowLength * targetHeight
        return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = UnsafeSendablePointer(base)
            horizontal.withUnsafeBufferPointer { input in
                guard let inputBase = input.baseAddress else { return }
                let source = UnsafeSendableReadPointer(inputBase)
                Parallel.forEachChunk(of: targetHeight, minimumChunk: 8) { range in
                    for row in range {
                        let out = output.base + row * rowLength
                        out.initialize(repeating: 0, count: rowLength)
                        let footprint = rows[row]
                        for (offset, weight) in footprint.weights.enumerated() {
                            let line = source.base + (footprint.start + offset) * rowLength
                            for index in 0..<rowLength { out[index] += weight * line[index] }
                        }
                    }
                }
            }
            initialized = count
        }
    }
}
