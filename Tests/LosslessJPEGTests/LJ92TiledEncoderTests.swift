import LosslessJPEG
import Testing

@Suite struct LJ92TiledEncoderTests {
    /// Decodes every tile and rebuilds the padded plane (tilesAcross × tileWidth by tilesDown × tileHeight).
    func reassemble(_ tiles: [[UInt8]], tiler: LJ92TiledEncoder, width: Int, height: Int) throws -> [UInt16] {
        let grid = tiler.tileGrid(width: width, height: height)
        let paddedWidth = grid.across * tiler.tileWidth * tiler.samplesPerPixel
        var padded = [UInt16](repeating: 0, count: paddedWidth * grid.down * tiler.tileHeight)
        let tileRow = tiler.tileWidth * tiler.samplesPerPixel
        for (index, tile) in tiles.enumerated() {
            let image = try LJ92Decoder.decode(tile)
            #expect(image.frame.samplesPerRow == tileRow && image.height == tiler.tileHeight)
            #expect(image.components == tiler.components && image.precision == tiler.precision)
            let x0 = (index % grid.across) * tileRow
            let y0 = (index / grid.across) * tiler.tileHeight
            for row in 0..<tiler.tileHeight {
                let target = (y0 + row) * paddedWidth + x0
                padded.replaceSubrange(
                    target..<(target + tileRow), with: image.samples[(row * tileRow)..<((row + 1) * tileRow)])
            }
        }
        return padded
    }

    /// Checks the decoded padded plane: the image's samples where the image is, and in the padding of every tile
    /// samples that predictor 1 predicts exactly (each equal to the sample one JPEG pixel to its left, or at the start
    /// of a row, to the one above), so that the padding codes as differences of 0. Returns the mismatches.
    func paddingMismatches(
        _ decoded: [UInt16], plane: [UInt16], width: Int, height: Int, tiler: LJ92TiledEncoder
    ) -> (image: Int, padding: Int) {
        let grid = tiler.tileGrid(width: width, height: height)
        let pixel = tiler.samplesPerPixel
        let paddedWidth = grid.across * tiler.tileWidth * pixel
        let tileRow = tiler.tileWidth * pixel
        var mismatches = (image: 0, padding: 0)
        for y in 0..<(grid.down * tiler.tileHeight) {
            for position in 0..<paddedWidth {
                let value = decoded[y * paddedWidth + position]
                if y < height && position < width * pixel {
                    if value != plane[y * width * pixel + position] { mismatches.image += 1 }
                    continue
                }
                let inTile = position % tileRow
                let prediction =
                    inTile >= tiler.components
                    ? decoded[y * paddedWidth + position - tiler.components]
                    : decoded[(y - 1) * paddedWidth + position]
                if value != prediction { mismatches.padding += 1 }
            }
        }
        return mismatches
    }

    @Test(arguments: [(1, 16, 8), (1, 256, 256), (3, 16, 16), (2, 8, 4)])
    func tilesDecodeBackToThePlaneWithPaddingThePredictorPredicts(
        samplesPerPixel: Int, tileWidth: Int, tileHeight: Int
    ) throws {
        // Odd sizes so that the right and bottom tiles overhang.
        let width = 2 * tileWidth + tileWidth / 2 + 1
        let height = tileHeight + tileHeight / 3 + 1
        let plane = TestData.smooth(width: width, height: height, components: samplesPerPixel, precision: 14, seed: 1)
        let tiler = try LJ92TiledEncoder(
            tileWidth: tileWidth, tileHeight: tileHeight, samplesPerPixel: samplesPerPixel, precision: 14)
        #expect(tiler.components == (samplesPerPixel == 1 ? 2 : samplesPerPixel))
        let tiles = try tiler.encode(plane, width: width, height: height)
        let grid = tiler.tileGrid(width: width, height: height)
        #expect(grid.across == 3 && tiles.count == grid.across * grid.down)
        let decoded = try reassemble(tiles, tiler: tiler, width: width, height: height)
        let mismatches = paddingMismatches(decoded, plane: plane, width: width, height: height, tiler: tiler)
        #expect(mismatches.image == 0 && mismatches.padding == 0)
    }

    /// An edge tile costs about what its image part costs alone: the padding codes as differences of 0, about a bit
    /// a sample, even below the image, where predictor 1 predicts from the left (repeating the last row there would
    /// cost as much as the row itself).
    @Test(arguments: [(200, 100), (100, 200), (100, 100), (254, 2), (2, 254)])
    func paddingCostsAboutABitPerSample(columns: Int, rows: Int) throws {
        let tileSize = 256
        let plane = TestData.random(count: 2 * tileSize * 2 * tileSize, precision: 8, seed: 11).map { $0 + 1000 }
        let (width, height) = (tileSize + columns, tileSize + rows)
        let tiler = try LJ92TiledEncoder(
            tileWidth: tileSize, tileHeight: tileSize, samplesPerPixel: 1, precision: 14,
            tables: .sampledPerComponent(rowStep: 4), threadCount: 1)
        let tiles = try plane.withUnsafeBufferPointer { buffer in
            try tiler.encode(buffer, width: width, height: height, rowStride: 2 * tileSize)
        }
        #expect(tiles.count == 4)
        // The corner tile against its image part encoded alone: the padding may add a bit per padding sample (the
        // code of category 0) and a bit per image sample (the other codes, one longer where 0 takes a 1-bit code).
        let corner = (0..<rows).flatMap { row in
            plane[((tileSize + row) * 2 * tileSize + tileSize)...].prefix(columns)
        }
        let alone = try tiler.encoder.encode(corner, samplesPerRow: columns).count
        let padding = tileSize * tileSize - columns * rows
        let bound = alone + alone / 50 + padding / 8 + columns * rows / 8 + 300
        #expect(tiles[3].count <= bound, "corner tile \(tiles[3].count) bytes, its \(columns)×\(rows) part alone \(alone)")
    }

    @Test func resultDoesNotDependOnTheThreadCount() throws {
        let plane = TestData.smooth(width: 300, height: 70, components: 1, precision: 12, seed: 2)
        var outputs: [[[UInt8]]] = []
        for threads in [1, 2, 3, 8] {
            let tiler = try LJ92TiledEncoder(
                tileWidth: 64, tileHeight: 32, samplesPerPixel: 1, precision: 12, threadCount: threads)
            outputs.append(try tiler.encode(plane, width: 300, height: 70))
        }
        #expect(outputs.allSatisfy { $0 == outputs[0] })
    }

    @Test func interiorTilesMatchDirectEncoding() throws {
        let plane = TestData.smooth(width: 64, height: 32, components: 1, precision: 14, seed: 4)
        let tiler = try LJ92TiledEncoder(tileWidth: 32, tileHeight: 16, samplesPerPixel: 1, precision: 14)
        let tiles = try tiler.encode(plane, width: 64, height: 32)
        // Tile 3 is the bottom-right one: rows 16…31, columns 32…63.
        let window = (16..<32).flatMap { plane[($0 * 64 + 32)..<($0 * 64 + 64)] }
        #expect(tiles[3] == (try tiler.encoder.encode(window, samplesPerRow: 32)))
    }

    @Test func wholeImageAsOneStream() throws {
        let plane = TestData.smooth(width: 50, height: 21, components: 1, precision: 14, seed: 6)
        let tiler = try LJ92TiledEncoder(tileWidth: 256, tileHeight: 256, samplesPerPixel: 1, precision: 14)
        let stream = try tiler.encodeAsOneStream(plane, width: 50, height: 21)
        let image = try LJ92Decoder.decode(stream)
        #expect(image.width == 25 && image.height == 21 && image.components == 2)
        #expect(image.samples == plane)
        // An odd CFA width cannot make pairs.
        #expect(throws: LJ92Error(.invalidInput)) { try tiler.encodeAsOneStream(plane, width: 49, height: 21) }
    }

    @Test func sampleAbovePrecisionInAnyTileFails() throws {
        var plane = [UInt16](repeating: 100, count: 40 * 40)
        plane[39 * 40 + 39] = 4096
        let tiler = try LJ92TiledEncoder(tileWidth: 16, tileHeight: 16, samplesPerPixel: 1, precision: 12)
        #expect(throws: LJ92Error(.invalidInput)) { try tiler.encode(plane, width: 40, height: 40) }
    }

    @Test func invalidTilingsAreRejected() throws {
        #expect(throws: LJ92Error(.invalidInput)) {
            try LJ92TiledEncoder(tileWidth: 15, tileHeight: 16, samplesPerPixel: 1, precision: 12)
        }
        #expect(throws: LJ92Error(.invalidInput)) {
            try LJ92TiledEncoder(tileWidth: 0, tileHeight: 16, samplesPerPixel: 1, precision: 12)
        }
        #expect(throws: LJ92Error(.invalidInput)) {
            try LJ92TiledEncoder(tileWidth: 16, tileHeight: 16, samplesPerPixel: 5, precision: 12)
        }
        let tiler = try LJ92TiledEncoder(tileWidth: 16, tileHeight: 16, samplesPerPixel: 1, precision: 12)
        #expect(throws: LJ92Error(.invalidInput)) { try tiler.encode([1, 2, 3], width: 2, height: 2) }
    }
}
