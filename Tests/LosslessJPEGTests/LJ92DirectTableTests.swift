import Testing

@testable import LosslessJPEG

/// The encoder's direct code table is filled category by category for speed; every entry must equal the bits and
/// length that the general per-difference path (`LJ92Kernel.category` and `LJ92CodeEntry.bits`) gives, also when
/// the table is reused from an earlier stream.
@Suite struct LJ92DirectTableTests {
    /// Code tables of 1…4 components from optimal Huffman tables of skewed histograms, some categories absent.
    static func codeTable(components: Int, seed: Int) -> [UInt64] {
        var entries = [UInt64](repeating: 0, count: components * 17)
        for component in 0..<components {
            let counts = (0...16).map { category in
                category % (component + 2) == seed % 3 ? 0 : (1 + (category * 7919 + seed * 31) % 1000) << (16 - category)
            }
            let codes = LJ92HuffmanTable.optimal(forCategoryCounts: counts).codesByCategory
            for category in 0...16 {
                guard let code = codes[category] else { continue }
                entries[component * 17 + category] = LJ92CodeEntry.make(
                    code: code.code, length: code.length, category: category)
            }
        }
        return entries
    }

    @Test(arguments: 1...4, 0..<3)
    func everyEntryMatchesThePerDifferenceCode(components: Int, seed: Int) {
        let codes = Self.codeTable(components: components, seed: seed)
        // A table left over from another stream: every entry must be overwritten.
        var table = [UInt64](repeating: 0xDEAD_BEEF_DEAD_BEEF, count: components * LJ92EncodingPass.directStride)
        LJ92EncodingPass.fillDirectTable(&table, codes: codes, components: components)
        #expect(table.count == components * LJ92EncodingPass.directStride)
        var mismatches = 0
        for component in 0..<components {
            for difference in -LJ92EncodingPass.directReach...LJ92EncodingPass.directReach {
                let (category, signed) = LJ92Kernel.category(ofDifference: Int32(difference))
                let entry = codes[component * 17 + category]
                let expected =
                    LJ92CodeEntry.bits(entry, difference: signed) | (UInt64(LJ92CodeEntry.length(entry)) << 32)
                let index = component * LJ92EncodingPass.directStride + difference + LJ92EncodingPass.directReach
                if table[index] != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }
}
