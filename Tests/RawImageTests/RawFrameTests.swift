import RawImage
import Testing

@Suite struct RawFrameTests {
    @Test func rejectsWrongSampleCount() {
        #expect(throws: RawImageError(.sampleCountMismatch)) {
            try RawFrame(
                width: 4, height: 4, bitsPerSample: 12, samples: [UInt16](repeating: 0, count: 15), cfa: .rggb,
                blackLevels: [0, 0, 0, 0], whiteLevel: 4095)
        }
    }

    @Test(arguments: [7, 17]) func rejectsBitDepth(bits: Int) {
        #expect(throws: RawImageError(.unsupportedBitDepth)) {
            try RawFrame(
                width: 2, height: 2, bitsPerSample: bits, samples: [0, 0, 0, 0], cfa: .rggb,
                blackLevels: [0, 0, 0, 0], whiteLevel: 100)
        }
    }

    @Test func patternIsAnchoredAtTheActiveArea() throws {
        let frame = try RawFrame(
            width: 8, height: 8, bitsPerSample: 14, samples: [UInt16](repeating: 0, count: 64), cfa: .rggb,
            blackLevels: [1, 2, 3, 4], whiteLevel: 16383, activeArea: PixelRect(x: 1, y: 1, width: 7, height: 7))
        #expect(frame.color(row: 1, column: 1) == .red)
        #expect(frame.color(row: 1, column: 2) == .green)
        #expect(frame.color(row: 0, column: 0) == .blue)  // masked border wraps the pattern
        #expect(frame.blackLevel(row: 2, column: 2) == 4)
    }

    @Test func shiftedPatternFollowsACrop() {
        #expect(CFAPattern.rggb.shifted(rows: 0, columns: 1) == .grbg)
        #expect(CFAPattern.rggb.shifted(rows: 1, columns: 0) == .gbrg)
        #expect(CFAPattern.rggb.shifted(rows: 1, columns: 1) == .bggr)
        let xTransColours = CFAPattern.xTrans.colors
        #expect(xTransColours.filter { $0 == .green }.count == 20)
        #expect(xTransColours.filter { $0 == .red }.count == 8)
    }

    @Test func rationalApproximatesShutterSpeeds() {
        #expect(Rational(approximating: 1.0 / 125) == Rational(1, 125))
        #expect(Rational(approximating: -1.0 / 3) == Rational(-1, 3))
        #expect(Rational(approximating: 2.5) == Rational(5, 2))
    }
}
