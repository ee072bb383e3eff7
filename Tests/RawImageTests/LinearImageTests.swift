import RawImage
import SceneSynthesis
import Testing

@Suite struct LinearImageTests {
    @Test func companding12TableIsStrictlyIncreasingFromBlackToWhite() {
        let table = CompandingCurve.table
        #expect(table.count == 4096)
        #expect(table.first == 0 && table.last == 65535)
        #expect(zip(table, table.dropFirst()).allSatisfy { $0 < $1 })
        // Steps grow like a square root: about 1 unit at black, 31 at white.
        #expect(table[1] - table[0] == 1)
        #expect(table[4095] - table[4094] == 31)
    }

    @Test func encodingPicksTheNearestCodeWithinHalfAStep() {
        let table = CompandingCurve.table
        var worstAtTop = 0
        for value in stride(from: 0, through: 65535, by: 7) {
            let code = Int(CompandingCurve.code(for: value))
            let error = abs(Int(table[code]) - value)
            let neighbours = [code - 1, code + 1].filter { (0...4095).contains($0) }
            #expect(neighbours.allSatisfy { abs(Int(table[$0]) - value) >= error })
            if value > 60000 { worstAtTop = max(worstAtTop, error) }
            #expect(error <= 16)
        }
        #expect(worstAtTop >= 10)  // the top steps really are about 31 wide
        #expect(CompandingCurve.code(for: -5) == 0 && CompandingCurve.code(for: 70000) == 4095)
    }

    @Test(arguments: [CFAPattern.rggb, .xTrans])
    func linearLevelsMatchTheBlackSubtractedSensorValues(cfa: CFAPattern) throws {
        let scene = try SyntheticScene(width: 480, height: 320, cfa: cfa, bitsPerSample: 14)
        let frame = try scene.render()
        let image = try LinearImage(demosaicing: frame)
        #expect(image.width == frame.activeArea.width && image.height == frame.activeArea.height)
        #expect(image.bitsPerSample == 16 && image.linearizationTable == nil)
        #expect(image.blackLevels == [0, 0, 0] && image.whiteLevels == [65535, 65535, 65535])
        #expect(image.defaultCrop == frame.defaultCrop)
        #expect(image.color == frame.color)
        #expect(image.metadata == frame.metadata)
        let range = Double(scene.whiteLevel - scene.blackLevel)
        for patch in [12, 14, 18, 21] {
            let rect = scene.patchRect(patch).inset(by: 3)
            for (channel, color) in [(0, CFAColor.red), (1, .green), (2, .blue)] {
                let expected = PhotositeStats(frame, rect, color: color).mean / range * 65535
                var sum = 0.0
                for row in rect.y..<rect.bottom {
                    for column in rect.x..<rect.right {
                        let x = column - frame.activeArea.x
                        let y = row - frame.activeArea.y
                        sum += Double(image.samples[(y * image.width + x) * 3 + channel])
                    }
                }
                let measured = sum / Double(rect.width * rect.height)
                #expect(abs(measured / expected - 1) < 0.01, "patch \(patch) channel \(channel)")
            }
        }
    }

    @Test func companded12ExpandsToTheLinearValues() throws {
        let scene = try SyntheticScene(width: 320, height: 240, cfa: .gbrg, bitsPerSample: 14)
        let frame = try scene.render()
        let linear = try LinearImage(demosaicing: frame)
        let companded = try LinearImage(demosaicing: frame, encoding: .companded12)
        let table = try #require(companded.linearizationTable)
        #expect(companded.bitsPerSample == 12 && table == CompandingCurve.table)
        #expect(companded.samples.allSatisfy { $0 < 4096 })
        for (code, value) in zip(companded.samples, linear.samples) {
            let expanded = Int(table[Int(code)])
            // Half a step of the curve at this value: under 16 units everywhere.
            #expect(abs(expanded - Int(value)) <= 16)
        }
    }

    @Test func carriesAToneCurveAndTheBaselineExposure() throws {
        var scene = try SyntheticScene(width: 64, height: 64, cfa: .rggb, bitsPerSample: 12)
        scene.baselineExposure = 0.5
        let image = try LinearImage(demosaicing: try scene.render())
        let curve = try #require(image.profileToneCurve)
        #expect(curve.first?.x == 0 && curve.first?.y == 0 && curve.last?.x == 1 && curve.last?.y == 1)
        #expect(zip(curve, curve.dropFirst()).allSatisfy { $0.x < $1.x && $0.y <= $1.y })
        #expect(image.color.baselineExposure == 0.5)
        #expect(try LinearImage(demosaicing: try scene.render(), toneCurve: nil).profileToneCurve == nil)
        // The filmic curve lifts mid-grey by about 1 EV and is gentle at the ends.
        #expect(abs(ToneCurve.filmic(0.094) - 0.186) < 0.01)
    }

    @Test func rendersLikeTheFrameItCameFrom() throws {
        let scene = try SyntheticScene(width: 480, height: 320, cfa: .rggb, bitsPerSample: 14)
        let frame = try scene.render()
        let fromFrame = try frame.renderRGB8(RenderOptions(method: .quality))
        for encoding in LinearImage.Encoding.allCases {
            let fromLinear = try LinearImage(demosaicing: frame, encoding: encoding).renderRGB8()
            #expect(fromLinear.width == fromFrame.width && fromLinear.height == fromFrame.height)
            var worst = 0
            var total = 0
            for (a, b) in zip(fromFrame.pixels, fromLinear.pixels) {
                worst = max(worst, abs(Int(a) - Int(b)))
                total += abs(Int(a) - Int(b))
            }
            // Only the 16-bit store's clipping of below-black noise to 0 (visible in the deepest shadows after the
            // tone curve) and companding differ.
            let meanDifference = Double(total) / Double(fromFrame.pixels.count)
            #expect(worst <= 6 && meanDifference < 0.3, "\(encoding): largest \(worst), mean \(meanDifference)")
        }
    }
}
