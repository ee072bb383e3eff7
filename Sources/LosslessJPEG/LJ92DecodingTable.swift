/// A Huffman table prepared for decoding: a lookup table indexed by the next ``lookupBits`` bits, plus T.81's
/// MAXCODE/VALPTR arrays (Figure F.16) for the rare codes longer than the lookup.
///
/// Lookup entries come in three kinds:
/// - *complete* (`0x8000` set): code and extra bits both fit, so the entry holds the difference itself (bits 16…31,
///   modulo 2^16) and the total bit count (bits 0…4);
/// - *code only* (`0x4000` set): the code fits but its extra bits do not; the entry holds the category (bits 8…12)
///   and the code length (bits 0…4);
/// - zero: no code of ``lookupBits`` bits or fewer starts here; the slow path searches longer codes.
///
/// The storage is allocated once and freed with the table; ``pointers`` hands it to the decoding loop.
final class LJ92DecodingTable: @unchecked Sendable {
    /// Index bits of the lookup table. 12 bits (16 KiB) hold the code and extra bits of nearly every difference in
    /// 12- to 14-bit sensor data, where categories are 5…9 and codes 2…5 bits long.
    static let lookupBits = 12

    static let completeFlag: UInt32 = 0x8000
    static let codeOnlyFlag: UInt32 = 0x4000

    private let lookup: UnsafeMutablePointer<UInt32>
    // maxCode[L]: the largest code of length L, or −1; symbolOffset[L] + code indexes `values` (VALPTR − MINCODE).
    private let maxCode: UnsafeMutablePointer<Int32>
    private let symbolOffset: UnsafeMutablePointer<Int32>
    private let values: UnsafeMutablePointer<UInt8>

    /// Builds the decoding structures of a checked table (its codes never over-fill the code space, so no two codes
    /// claim the same lookup entry).
    init(_ table: LJ92HuffmanTable) {
        let lookupCount = 1 << Self.lookupBits
        lookup = .allocate(capacity: lookupCount)
        lookup.initialize(repeating: 0, count: lookupCount)
        maxCode = .allocate(capacity: 17)
        maxCode.initialize(repeating: -1, count: 17)
        symbolOffset = .allocate(capacity: 17)
        symbolOffset.initialize(repeating: 0, count: 17)
        values = .allocate(capacity: max(table.values.count, 1))
        values.initialize(repeating: 0, count: max(table.values.count, 1))

        for (index, entry) in table.codes.enumerated() {
            values[index] = entry.value
            let length = entry.length
            let code = Int(entry.code)
            if maxCode[length] < 0 { symbolOffset[length] = Int32(index - code) }
            maxCode[length] = Int32(code)
            guard length <= Self.lookupBits else { continue }

            let category = Int(entry.value)
            let extraCount = category == 16 ? 0 : category
            if length + extraCount <= Self.lookupBits {
                let total = length + extraCount
                let free = Self.lookupBits - total
                for extra in 0..<(1 << extraCount) {
                    let difference = UInt32(
                        UInt16(truncatingIfNeeded: Self.difference(category: category, extra: extra)))
                    let item = (difference << 16) | Self.completeFlag | UInt32(total)
                    let first = ((code << extraCount) | extra) << free
                    for index in first..<(first + (1 << free)) { lookup[index] = item }
                }
            } else {
                let free = Self.lookupBits - length
                let item = Self.codeOnlyFlag | UInt32(category << 8) | UInt32(length)
                let first = code << free
                for index in first..<(first + (1 << free)) { lookup[index] = item }
            }
        }
    }

    deinit {
        lookup.deallocate()
        maxCode.deallocate()
        symbolOffset.deallocate()
        values.deallocate()
    }

    /// The raw pointers the decoding loop reads; valid while the table is alive.
    var pointers: Pointers { Pointers(lookup: lookup, maxCode: maxCode, symbolOffset: symbolOffset, values: values) }

    /// The table's storage, for the decoding loop.
    struct Pointers {
        let lookup: UnsafePointer<UInt32>
        let maxCode: UnsafePointer<Int32>
        let symbolOffset: UnsafePointer<Int32>
        let values: UnsafePointer<UInt8>

        init(
            lookup: UnsafeMutablePointer<UInt32>, maxCode: UnsafeMutablePointer<Int32>,
            symbolOffset: UnsafeMutablePointer<Int32>, values: UnsafeMutablePointer<UInt8>
        ) {
            self.lookup = UnsafePointer(lookup)
            self.maxCode = UnsafePointer(maxCode)
            self.symbolOffset = UnsafePointer(symbolOffset)
            self.values = UnsafePointer(values)
        }
    }

    /// The difference that `extra` (the `category` bits after the code) stands for (T.81 F.2.2.1, Figure F.12:
    /// values below 2^(category−1) are negative); category 16 is 32768 with no extra bits (T.81 H.1.2.2).
    @inline(__always)
    static func difference(category: Int, extra: Int) -> Int32 {
        if category == 0 { return 0 }
        if category == 16 { return 32768 }
        let value = Int32(truncatingIfNeeded: extra)
        return value < Int32(1) << (category - 1) ? value - (Int32(1) << category) + 1 : value
    }
}
