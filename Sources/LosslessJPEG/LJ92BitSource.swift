/// The decoder's view of one entropy-coded segment: a 64-bit cache of upcoming bits, MSB first, refilled from the
/// stream with byte stuffing undone (T.81 F.1.2.3).
///
/// It agrees with `WireFormat.BitReader` (tested) but is built for the decoding loop: eight bytes are loaded at
/// once when none of them is `0xFF`, and reaching a marker or the end of the input does not throw. Instead zero
/// bits are supplied (as T.81 F.2.2.5 prescribes for decoders) and counted in ``phantomBits``; the caller checks
/// ``hasOverrun`` after each row, so the loop needs no error path per sample and a damaged stream still costs at
/// most one row of wasted work before it throws.
struct LJ92BitSource {
    /// The whole input; indices below are offsets from this pointer.
    let data: UnsafePointer<UInt8>
    /// One past the last byte of the input.
    let end: Int
    /// The next byte to load.
    private(set) var position: Int
    /// Upcoming bits, left-aligned: bit 63 is the next bit.
    private(set) var cache: UInt64 = 0
    /// How many bits of ``cache`` are loaded (real or phantom).
    private(set) var cacheBits = 0
    /// Zero bits supplied after the data ended; those still in the cache are its lowest ones.
    private(set) var phantomBits = 0
    /// Offset near the first bit pattern that matched no code, or −1 (set by the decoding loop; a plain integer
    /// rather than an optional keeps the loop's state simple for the optimiser).
    var invalidCodeOffset = -1

    init(data: UnsafePointer<UInt8>, start: Int, end: Int) {
        self.data = data
        self.end = end
        position = start
    }

    /// Whether bits beyond the real data have been consumed: the segment is shorter than the scan needs.
    var hasOverrun: Bool { cacheBits < phantomBits }

    /// Ensures at least 57 bits are loaded, which covers one difference (at most 16 code + 15 extra bits).
    @inline(__always)
    mutating func refill() {
        // Fast path: eight bytes with no 0xFF among them need no unstuffing and contain no marker.
        if position &+ 8 <= end {
            let word = UInt64(bigEndian: UnsafeRawPointer(data + position).loadUnaligned(as: UInt64.self))
            let inverted = ~word
            if (inverted &- 0x0101_0101_0101_0101) & word & 0x8080_8080_8080_8080 == 0 {
                let byteCount = (64 &- cacheBits) &>> 3
                let bitCount = byteCount &<< 3
                cache |=
                    (word &>> UInt64(truncatingIfNeeded: 64 &- bitCount))
                    &<< UInt64(truncatingIfNeeded: 64 &- cacheBits &- bitCount)
                cacheBits &+= bitCount
                position &+= byteCount
                return
            }
        }
        self = Self.refilledSlowly(self)
    }

    /// The byte-by-byte refill. It takes and returns the source by value, so the decoding loop never hands out
    /// the address of its source and the optimiser can keep the source's fields in registers.
    @inline(never)
    private static func refilledSlowly(_ source: LJ92BitSource) -> LJ92BitSource {
        var source = source
        source.loadBytesSlowly()
        return source
    }

    private mutating func loadBytesSlowly() {
        while cacheBits <= 56 {
            var byte: UInt8 = 0
            if position < end {
                byte = data[position]
                if byte == 0xFF {
                    if position + 1 < end && data[position + 1] == 0x00 {
                        position += 2
                    } else {
                        // A marker (or fill bytes, or a lone 0xFF at the end): the segment is over. Stay here so
                        // the caller finds the marker, and supply zeros.
                        byte = 0
                        phantomBits += 8
                    }
                } else {
                    position += 1
                }
            } else {
                phantomBits += 8
            }
            cache |= UInt64(byte) << UInt64(56 - cacheBits)
            cacheBits += 8
        }
    }

    /// The next `count` bits (1…32) as a number, without consuming them.
    @inline(__always)
    func peek(_ count: Int) -> UInt32 { UInt32(truncatingIfNeeded: cache &>> UInt64(truncatingIfNeeded: 64 &- count)) }

    /// Consumes `count` bits (0…32).
    @inline(__always)
    mutating func consume(_ count: Int) {
        cache = cache &<< UInt64(truncatingIfNeeded: count)
        cacheBits &-= count
    }

    /// Discards the cached bits and returns the offset of the next marker's code byte (after its `0xFF` and any
    /// fill bytes), skipping any data bytes left before it; `nil` when the input ends first.
    ///
    /// Called at the end of a restart interval or scan. The loader never reads past a marker, so the marker is at
    /// or after ``position``. Leftover bytes before it are tolerated, as libjpeg does ("extraneous bytes before
    /// marker"), because the samples are already decoded and overrun-checked.
    mutating func nextMarker() -> Int? {
        cache = 0
        cacheBits = 0
        phantomBits = 0
        var index = position
        while index < end {
            guard data[index] == 0xFF else {
                index += 1
                continue
            }
            var code = index + 1
            while code < end && data[code] == 0xFF { code += 1 }
            guard code < end else { return nil }
            if data[code] != 0x00 {
                position = code + 1
                return code
            }
            index = code + 1
        }
        return nil
    }
}
