import Foundation
import LosslessJPEG
import Testing

@Suite struct LJ92HuffmanTableTests {
    /// The properties every table from T.81 K.2 must have: valid (the initializer's Kraft check), at most 16 bits,
    /// no all-ones code, a code for exactly the categories that occur, and shorter codes for more frequent ones.
    func checkOptimal(_ counts: [Int]) throws {
        let table = LJ92HuffmanTable.optimal(forCategoryCounts: counts)
        _ = try LJ92HuffmanTable(codeCounts: table.codeCounts, values: table.values)
        let codes = table.codes
        let used = counts.indices.filter { counts[$0] > 0 }
        #expect(Set(codes.map { Int($0.value) }) == Set(used.isEmpty ? [0] : used))
        #expect(codes.allSatisfy { $0.length <= 16 })
        #expect(codes.allSatisfy { Int($0.code) != (1 << $0.length) - 1 }, "all-ones code in \(counts)")
        let lengthOf = Dictionary(uniqueKeysWithValues: codes.map { (Int($0.value), $0.length) })
        for a in used {
            for b in used where counts[a] > counts[b] {
                #expect(lengthOf[a, default: 0] <= lengthOf[b, default: 0], "\(counts): \(a) vs \(b)")
            }
        }
    }

    @Test func typicalHistogramsGiveValidOptimalTables() throws {
        try checkOptimal([])
        try checkOptimal([5])
        try checkOptimal([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9])
        try checkOptimal([3, 3])
        try checkOptimal([Int](repeating: 1, count: 17))
        try checkOptimal([100, 400, 900, 1600, 2500, 3000, 2000, 900, 300, 50, 5, 1, 0, 0, 0, 0, 1])
    }

    /// Doubling frequencies (1, 1, 2, 4, …, 2^15) make a Huffman tree 17 levels deep once the reserved symbol
    /// joins, so the length limit of Figure K.3 must act.
    @Test func lengthsAreLimitedToSixteenBits() throws {
        let doubling = [1] + (0..<16).map { 1 << $0 }
        try checkOptimal(doubling)
        try checkOptimal(doubling.reversed())
        let table = LJ92HuffmanTable.optimal(forCategoryCounts: doubling)
        #expect(table.codes.map(\.length).max() == 16)
        #expect(table.codeCounts == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 3])
    }

    /// Optimal within a bit of the entropy (Huffman codes are), and better than a flat 5-bit code on skewed data.
    @Test func averageLengthIsNearTheEntropy() {
        let counts = [5000, 9000, 12000, 9000, 4000, 1500, 400, 90, 10]
        let table = LJ92HuffmanTable.optimal(forCategoryCounts: counts)
        let total = Double(counts.reduce(0, +))
        var bits = 0.0
        var entropy = 0.0
        for code in table.codes {
            let count = Double(counts[Int(code.value)])
            bits += count * Double(code.length)
            entropy -= count * log2(count / total)
        }
        #expect(bits / total < entropy / total + 1)
        #expect(bits / total < 5)
    }

    @Test func invalidTablesAreRejected() {
        let zeros = [UInt8](repeating: 0, count: 15)
        #expect(throws: LJ92Error(.invalidTable)) { try LJ92HuffmanTable(codeCounts: [1], values: [0]) }
        #expect(throws: LJ92Error(.invalidTable)) { try LJ92HuffmanTable(codeCounts: [2] + zeros, values: [0]) }
        #expect(throws: LJ92Error(.invalidTable)) { try LJ92HuffmanTable(codeCounts: [3] + zeros, values: [0, 1, 2]) }
        #expect(throws: LJ92Error(.invalidTable)) { try LJ92HuffmanTable(codeCounts: [1] + zeros, values: [17]) }
        #expect(throws: LJ92Error(.invalidTable)) { try LJ92HuffmanTable(codeCounts: [0] + zeros, values: []) }
    }

    /// Canonical code assignment (T.81 Figures C.1–C.3) on a small table, by hand.
    @Test func canonicalCodesFollowAnnexC() throws {
        let table = try LJ92HuffmanTable(
            codeCounts: [0, 2, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], values: [4, 5, 3, 6, 2, 7])
        let codes = table.codes.map { "\($0.value):\(String($0.code, radix: 2)):\($0.length)" }
        #expect(codes == ["4:0:2", "5:1:2", "3:100:3", "6:101:3", "2:110:3", "7:1110:4"])
    }
}
