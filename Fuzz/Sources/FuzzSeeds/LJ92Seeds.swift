import LosslessJPEG

/// Seeds for the LJ92 fuzz target: complete lossless JPEG streams from `LJ92Encoder`.
enum LJ92Seeds {
    /// Small streams covering each predictor, 1…4 components, precisions from 2 to 16, restart intervals, shared
    /// and long-code tables, category 16 and a point transform.
    static func streams() throws -> [(String, [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        var state: UInt64 = 0x5EED
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func samples(width: Int, height: Int, components: Int, precision: Int, smooth: Bool) -> [UInt16] {
            let top = (1 << precision) - 1
            var values: [UInt16] = []
            for y in 0..<height {
                for x in 0..<width {
                    for c in 0..<components {
                        let base = smooth ? (top / 4 + (x + y + c * 3) * top / 64) : random(top + 1)
                        values.append(UInt16(min(top, max(0, base + (smooth ? random(9) - 4 : 0)))))
                    }
                }
            }
            return values
        }
        for predictor in LJ92Predictor.allValid {
            let components = 1 + Int(predictor.rawValue) % 4
            let precision = [8, 12, 14, 16, 10, 2, 15][Int(predictor.rawValue) - 1]
            let encoder = try LJ92Encoder(precision: precision, components: components, predictor: predictor)
            let values = samples(width: 6, height: 5, components: components, precision: precision, smooth: true)
            seeds.append(
                (
                    "predictor\(predictor.rawValue)-c\(components)-p\(precision)",
                    try encoder.encode(values, samplesPerRow: 6 * components)
                ))
        }
        let restart = try LJ92Encoder(precision: 14, components: 2, restartRows: 2)
        seeds.append(
            (
                "restart",
                try restart.encode(
                    samples(width: 4, height: 7, components: 2, precision: 14, smooth: true), samplesPerRow: 8)
            ))
        let shared = try LJ92Encoder(precision: 16, components: 3, tables: .optimalShared)
        seeds.append(
            (
                "shared-random16",
                try shared.encode(
                    samples(width: 5, height: 3, components: 3, precision: 16, smooth: false), samplesPerRow: 15)
            ))
        let long = try LJ92HuffmanTable(
            codeCounts: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2], values: (0...16).map { UInt8($0) })
        let longCodes = try LJ92Encoder(precision: 16, components: 1, tables: .fixed([long]))
        seeds.append(
            (
                "long-codes",
                try longCodes.encode(
                    samples(width: 16, height: 2, components: 1, precision: 16, smooth: false), samplesPerRow: 16)
            ))
        let extremes = try LJ92Encoder(precision: 16, components: 1)
        seeds.append(("category16", try extremes.encode((0..<24).map { $0 % 2 == 0 ? 0 : 32768 }, samplesPerRow: 12)))
        // A point transform: a 10-bit stream relabelled as 12-bit with Pt = 2.
        var transformed = try LJ92Encoder(precision: 10, components: 1).encode(
            samples(width: 5, height: 4, components: 1, precision: 10, smooth: true), samplesPerRow: 5)
        if let sof = transformed.indices.first(where: { transformed[$0] == 0xFF && transformed[$0 + 1] == 0xC3 }),
            let sos = transformed.indices.first(where: { transformed[$0] == 0xFF && transformed[$0 + 1] == 0xDA })
        {
            transformed[sof + 4] = 12
            let length = Int(transformed[sos + 2]) << 8 | Int(transformed[sos + 3])
            transformed[sos + 1 + length] = 2
            seeds.append(("point-transform", transformed))
        }
        return seeds
    }
}
