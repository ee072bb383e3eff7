/// A Huffman table for lossless JPEG difference categories, in the form a DHT segment carries it.
///
/// | field | size | meaning (ITU T.81 B.2.4.2, Figure B.7) |
/// |---|---|---|
/// | `Li` (``codeCounts``) | 16 bytes | number of codes of each length 1…16 (BITS) |
/// | `Vi,j` (``values``) | Σ Li bytes | the symbols in order of increasing code length (HUFFVAL) |
///
/// In lossless coding the symbols are the difference categories SSSS = 0…16 (T.81 Table H.2). Codes are assigned
/// canonically from the counts (T.81 Annex C, Figures C.1–C.3).
public struct LJ92HuffmanTable: Hashable, Sendable {
    /// How many codes have each length: `codeCounts[0]` counts 1-bit codes, `codeCounts[15]` 16-bit codes.
    public let codeCounts: [UInt8]
    /// The difference categories, shortest code first.
    public let values: [UInt8]

    /// The largest category: SSSS 16, the difference 32768, coded with no extra bits (T.81 H.1.2.2).
    public static let maxCategory = 16

    /// Checks and wraps a table.
    ///
    /// - Throws: ``LJ92Error/Code/invalidTable`` when there are not 16 counts, the counts do not match the values,
    ///   a value is not a category 0…16, or the counts over-fill the code space (Kraft sum above 1).
    public init(codeCounts: [UInt8], values: [UInt8]) throws(LJ92Error) {
        guard codeCounts.count == 16 else {
            throw LJ92Error(.invalidTable, "\(codeCounts.count) code-length counts instead of 16")
        }
        let total = codeCounts.reduce(0) { $0 + Int($1) }
        guard total == values.count, total > 0 else {
            throw LJ92Error(.invalidTable, "code-length counts add up to \(total) for \(values.count) values")
        }
        if let bad = values.first(where: { $0 > Self.maxCategory }) {
            throw LJ92Error(.invalidTable, "value \(bad) is not a difference category 0…16")
        }
        // Canonical codes of each length must fit in that length (T.81 C.2): with `code` the next free code, the
        // codes of length n are code…code+Ln−1, so code+Ln may reach 2^n (the all-ones code) but not pass it.
        var code = 0
        for (index, count) in codeCounts.enumerated() {
            code += Int(count)
            guard code <= 1 << (index + 1) else {
                throw LJ92Error(.invalidTable, "code lengths over-fill the code space at length \(index + 1)")
            }
            code <<= 1
        }
        self.codeCounts = codeCounts
        self.values = values
    }

    /// The canonical codes, in the order of ``values`` (T.81 Figures C.1 and C.2): each entry is a symbol with its
    /// code, right-aligned, and the code length.
    public var codes: [(value: UInt8, code: UInt16, length: Int)] {
        var result: [(value: UInt8, code: UInt16, length: Int)] = []
        result.reserveCapacity(values.count)
        var code = 0
        var index = 0
        for length in 1...16 {
            for _ in 0..<Int(codeCounts[length - 1]) {
                result.append((values[index], UInt16(truncatingIfNeeded: code), length))
                code += 1
                index += 1
            }
            code <<= 1
        }
        return result
    }

    /// The code of each category (`nil` when the table has none), indexed by category 0…16.
    var codesByCategory: [(code: UInt16, length: Int)?] {
        var byCategory = [(code: UInt16, length: Int)?](repeating: nil, count: Self.maxCategory + 1)
        for entry in codes where byCategory[Int(entry.value)] == nil {
            byCategory[Int(entry.value)] = (entry.code, entry.length)
        }
        return byCategory
    }

    /// The optimal table for the given category counts, built by T.81 Annex K.2: Huffman code sizes with one
    /// reserved code point so that no code is all ones (Figure K.1), lengths limited to 16 bits (Figure K.3),
    /// symbols sorted by code size (Figure K.4).
    ///
    /// - Parameter counts: how often each category 0…16 occurs (index = category; missing entries count 0).
    ///   Categories that never occur get no code. When all counts are zero the table codes category 0 alone.
    public static func optimal(forCategoryCounts counts: [Int]) -> LJ92HuffmanTable {
        let reserved = maxCategory + 1
        var frequency = (0...maxCategory).map { $0 < counts.count ? max(counts[$0], 0) : 0 }
        guard frequency.contains(where: { $0 > 0 }) else {
            return LJ92HuffmanTable(uncheckedCounts: [1] + [UInt8](repeating: 0, count: 15), values: [0])
        }
        // The reserved symbol (T.81's symbol 256) gets frequency 1 so that it is merged first and ends up with the
        // longest code; dropping it leaves the all-ones code unused.
        frequency.append(1)
        var codeSize = [Int](repeating: 0, count: reserved + 1)
        var others = [Int](repeating: -1, count: reserved + 1)
        while true {
            // V1 and V2: the two smallest non-zero frequencies; ties go to the larger symbol (as in Figure K.1's
            // reference implementations), which keeps the reserved symbol deepest.
            var v1 = -1
            var v2 = -1
            for symbol in 0...reserved where frequency[symbol] > 0 {
                if v1 < 0 || frequency[symbol] <= frequency[v1] {
                    v2 = v1
                    v1 = symbol
                } else if v2 < 0 || frequency[symbol] <= frequency[v2] {
                    v2 = symbol
                }
            }
            guard v2 >= 0 else { break }
            frequency[v1] += frequency[v2]
            frequency[v2] = 0
            var node = v1
            codeSize[node] += 1
            while others[node] >= 0 {
                node = others[node]
                codeSize[node] += 1
            }
            others[node] = v2
            node = v2
            codeSize[node] += 1
            while others[node] >= 0 {
                node = others[node]
                codeSize[node] += 1
            }
        }
        // BITS by code size; 18 symbols cannot make a code longer than 17 bits.
        var bits = [Int](repeating: 0, count: 33)
        for size in codeSize where size > 0 { bits[size] += 1 }
        // Figure K.3 Adjust_BITS: move pairs of over-long codes up until no code exceeds 16 bits.
        var length = 32
        while length > 16 {
            while bits[length] > 0 {
                var shorter = length - 2
                while bits[shorter] == 0 { shorter -= 1 }
                bits[length] -= 2
                bits[length - 1] += 1
                bits[shorter + 1] += 2
                bits[shorter] -= 1
            }
            length -= 1
        }
        // Remove the reserved code point from the longest length in use.
        while bits[length] == 0 { length -= 1 }
        bits[length] -= 1
        // Figure K.4: symbols by increasing code size; the reserved symbol sorts last and is left out.
        var values: [UInt8] = []
        for size in 1...32 {
            for symbol in 0...maxCategory where codeSize[symbol] == size { values.append(UInt8(symbol)) }
        }
        return LJ92HuffmanTable(uncheckedCounts: (1...16).map { UInt8(bits[$0]) }, values: values)
    }

    private init(uncheckedCounts: [UInt8], values: [UInt8]) {
        codeCounts = uncheckedCounts
        self.values = values
    }
}
