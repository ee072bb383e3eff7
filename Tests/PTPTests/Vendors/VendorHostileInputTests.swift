import PTP
import Testing
import WireFormat

/// Bit-flipped, truncated and random bytes for every vendor decoder: each either decodes to a value that survives
/// an encode/decode round trip or throws ``WireError``; nothing traps (STYLE §3.6).
@Suite struct VendorHostileInputTests {
    /// A small deterministic generator (SplitMix64), so a failure reproduces.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
    }

    static let seeds: [(String, any PTPDataset.Type, [UInt8])] = [
        ("canon", CanonEOSEventList.self, CanonEOSEventListTests.bytes),
        ("nikon", NikonEventList.self, NikonEventListTests.bytes),
        ("nikon-ex", NikonEventListEx.self, NikonEventListExTests.bytes),
        ("sony", SonyAllDevicePropData.self, SonyDevicePropDescTests.bytes),
        ("sony-desc", SonyDevicePropDesc.self, Array(SonyDevicePropDescTests.bytes.dropFirst(8).prefix(11))),
        ("fujifilm", FujifilmPropertyChangeList.self, FujifilmTests.bytes),
        (
            "canon-set", CanonEOSPropertyValue.self,
            CanonEOSPropertyValue(property: DevicePropertyCode.Canon.eosCaptureDestination, uint32: 4).ptpEncoded
        ),
    ]

    /// `nil` when `bytes` do not decode; otherwise whether the value's encoding decodes to the same encoding.
    static func roundTrip<T: PTPDataset>(_: T.Type, _ bytes: [UInt8]) -> Bool? {
        guard let value = try? T(ptpEncoded: bytes) else { return nil }
        guard let again = try? T(ptpEncoded: value.ptpEncoded) else { return false }
        return again.ptpEncoded == value.ptpEncoded
    }

    @Test(arguments: 0..<seeds.count)
    func mutatedInputNeverTraps(index: Int) throws {
        let (name, type, seed) = Self.seeds[index]
        #expect(Self.roundTrip(type, seed) == true, "\(name): the seed itself must decode")
        var generator = Generator(state: UInt64(index) &+ 0x5EED)
        var decoded = 0
        for _ in 0..<3000 {
            var bytes = seed
            switch generator.below(4) {
            case 0:  // flip one to four bits
                for _ in 0...generator.below(4) where !bytes.isEmpty {
                    bytes[generator.below(bytes.count)] ^= UInt8(1 << generator.below(8))
                }
            case 1:  // overwrite a byte with an extreme value
                if !bytes.isEmpty {
                    bytes[generator.below(bytes.count)] = [0x00, 0x7F, 0x80, 0xFF][generator.below(4)]
                }
            case 2:  // cut, then maybe append garbage
                bytes = Array(bytes.prefix(generator.below(bytes.count + 1)))
                bytes += (0..<generator.below(8)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            default:  // random bytes
                bytes = (0..<generator.below(64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            }
            // Decoding may throw (only WireError: the decoders use typed throws); a success must round-trip.
            if let roundTrips = Self.roundTrip(type, bytes) {
                decoded += 1
                #expect(roundTrips, "\(name): round trip of \(bytes)")
            }
        }
        #expect(decoded > 0, "\(name): no mutation decoded, so the round trip was never checked")
    }
}
