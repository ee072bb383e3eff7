import RawImage
import SceneSynthesis
import Testing

@Suite struct RenderGeometryTests {
    static func frame(width: Int = 640, height: Int = 400, orientation: Orientation = .normal) throws -> RawFrame {
        var scene = try SyntheticScene(width: width, height: height, cfa: .rggb, bitsPerSample: 12)
        scene.identity.orientation = orientation
        return try scene.render()
    }

    @Test(arguments: [256, 1024, 100, 7])
    func longSideIsExactAndAspectKept(longSide: Int) throws {
        let frame = try Self.frame()
        let crop = frame.defaultCrop
        let image = try frame.renderRGB8(RenderOptions(longSide: longSide))
        let expectedLong = min(longSide, max(crop.width, crop.height))
        #expect(max(image.width, image.height) == expectedLong)
        let aspect = Double(crop.width) / Double(crop.height)
        #expect(abs(Double(image.width) / Double(image.height) - aspect) < 2.0 / Double(image.height))
    }

    @Test func fullSizeByDefaultAndNeverUpscaled() throws {
        let frame = try Self.frame(width: 200, height: 150)
        let full = try frame.renderRGB8()
        #expect(full.width == frame.defaultCrop.width && full.height == frame.defaultCrop.height)
        let capped = try frame.renderRGB16(RenderOptions(longSide: 5000))
        #expect(capped.width == full.width && capped.height == full.height)
    }

    /// Non-square pixels are made square (DNG DefaultScale) by shrinking a side, never by enlarging one: a frame
    /// of pixels 1.535 as wide (Kodak DC120) renders shorter, one of pixels half as wide (Nikon D1X) narrower, at
    /// full size, as previews, and from its LinearRaw demosaic alike.
    @Test(arguments: [(1.535, 380, 195), (0.5, 190, 300), (1.0, 380, 300)])
    func nonSquarePixelsRenderAtTheirShape(ratio: Double, width: Int, height: Int) throws {
        var frame = try Self.frame(width: 400, height: 320)
        frame.pixelAspectRatio = ratio
        #expect(frame.defaultCrop.width == 380 && frame.defaultCrop.height == 300, "\(frame.defaultCrop)")
        let full = try frame.renderRGB8()
        #expect(full.width == width && full.height == height, "\(full.width)×\(full.height)")
        let linear = try LinearImage(demosaicing: frame).renderRGB16()
        #expect(linear.width == width && linear.height == height, "\(linear.width)×\(linear.height)")
        let preview = try frame.renderRGB8(RenderOptions(longSide: 100))
        let aspect = Double(width) / Double(height)
        #expect(abs(Double(preview.width) / Double(preview.height) - aspect) < 2.0 / Double(preview.height))
    }

    @Test(arguments: [Orientation.rotate90, .rotate270, .transpose, .transverse])
    func quarterTurnsSwapTheSides(orientation: Orientation) throws {
        let upright = try Self.frame().renderRGB8(RenderOptions(longSide: 320))
        let turned = try Self.frame(orientation: orientation).renderRGB8(RenderOptions(longSide: 320))
        #expect(turned.width == upright.height && turned.height == upright.width)
        let stored = try Self.frame(orientation: orientation).renderRGB8(
            RenderOptions(longSide: 320, appliesOrientation: false))
        #expect(stored == upright)
    }

    /// Display position of stored pixel (0, 0) — the top-left of the stored image — for each orientation,
    /// checked on a 3×2 image with distinct pixels.
    @Test func orientationMovesPixelsWhereEXIFSays() throws {
        // Stored:  A B C
        //          D E F
        let stored = try RGBImage8(width: 3, height: 2, pixels: (0..<6).flatMap { [UInt8($0), 0, 0] })
        func rows(_ image: RGBImage8) -> [[UInt8]] {
            (0..<image.height).map { row in (0..<image.width).map { image.pixels[(row * image.width + $0) * 3] } }
        }
        #expect(rows(stored.oriented(.normal)) == [[0, 1, 2], [3, 4, 5]])
        #expect(rows(stored.oriented(.mirrorHorizontal)) == [[2, 1, 0], [5, 4, 3]])
        #expect(rows(stored.oriented(.rotate180)) == [[5, 4, 3], [2, 1, 0]])
        #expect(rows(stored.oriented(.mirrorVertical)) == [[3, 4, 5], [0, 1, 2]])
        #expect(rows(stored.oriented(.transpose)) == [[0, 3], [1, 4], [2, 5]])
        #expect(rows(stored.oriented(.rotate90)) == [[3, 0], [4, 1], [5, 2]])
        #expect(rows(stored.oriented(.transverse)) == [[5, 2], [4, 1], [3, 0]])
        #expect(rows(stored.oriented(.rotate270)) == [[2, 5], [1, 4], [0, 3]])
    }

    @Test func downscalingAveragesInLinearLight() throws {
        // A 1-pixel black/white checkerboard averages to 50 % linear light: sRGB 188, not 128.
        let pixels = (0..<(64 * 48)).flatMap { index -> [UInt8] in
            let value: UInt8 = (index % 64 + index / 64) % 2 == 0 ? 255 : 0
            return [value, value, value]
        }
        let checker = try RGBImage8(width: 64, height: 48, pixels: pixels)
        let small = try checker.downscaled(toLongSide: 16)
        #expect(small.width == 16 && small.height == 12)
        #expect(small.pixels.allSatisfy { abs(Int($0) - 188) <= 1 })
        #expect(try checker.downscaled(toLongSide: 100) == checker)
    }
}
