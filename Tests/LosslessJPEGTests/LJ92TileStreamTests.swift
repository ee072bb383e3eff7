import LosslessJPEG
import Testing

/// `encodeInBackground`: the same tiles as `encode`, handed out as they finish, in any order, any number of times.
@Suite struct LJ92TileStreamTests {
    @Test(arguments: [1, 2, 4])
    func backgroundTilesEqualTheDirectOnes(threads: Int) throws {
        let (width, height) = (230, 150)
        let plane = TestData.smooth(width: width, height: height, components: 1, precision: 14, seed: 8)
        let tiler = try LJ92TiledEncoder(
            tileWidth: 32, tileHeight: 32, samplesPerPixel: 1, precision: 14,
            tables: .sampledPerComponent(rowStep: 4), threadCount: threads)
        let direct = try tiler.encode(plane, width: width, height: height)
        let stream = try tiler.encodeInBackground(plane, width: width, height: height)
        #expect(stream.tileCount == direct.count)
        // Last tile first, then in order, then one again: each read waits as needed and returns the same bytes.
        #expect(try stream.tile(direct.count - 1).get() == direct[direct.count - 1])
        for index in 0..<direct.count { #expect(try stream.tile(index).get() == direct[index], "tile \(index)") }
        #expect(try stream.tile(3).get() == direct[3])
        // In place, without the copy.
        #expect([UInt8](try stream.tileBytes(5).get()) == direct[5])
        stream.waitUntilFinished()
    }

    @Test func aSampleAboveThePrecisionFailsItsTileOnly() throws {
        var plane = TestData.smooth(width: 64, height: 64, components: 1, precision: 12, seed: 2)
        plane[40 * 64 + 40] = 4096
        let tiler = try LJ92TiledEncoder(tileWidth: 32, tileHeight: 32, samplesPerPixel: 1, precision: 12)
        let stream = try tiler.encodeInBackground(plane, width: 64, height: 64)
        #expect(throws: Never.self) { try stream.tile(0).get() }
        #expect(throws: LJ92Error(.invalidInput)) { try stream.tile(3).get() }
    }

    /// After cancel, the workers skip what they have not started: every tile is accounted for (encoded or
    /// cancelled) and waiting for the end returns.
    @Test func cancellingEndsTheStream() throws {
        let plane = TestData.smooth(width: 512, height: 512, components: 1, precision: 14, seed: 5)
        let tiler = try LJ92TiledEncoder(
            tileWidth: 16, tileHeight: 16, samplesPerPixel: 1, precision: 14, threadCount: 2)
        let stream = try tiler.encodeInBackground(plane, width: 512, height: 512)
        stream.cancel()
        stream.waitUntilFinished()
        var cancelled = 0
        for index in 0..<stream.tileCount {
            if case .failure = stream.tile(index) { cancelled += 1 }
        }
        #expect(cancelled > 0, "1024 tiles of 16×16, cancelled at once: the workers cannot have encoded them all")
    }

    @Test func aPlaneTooShortForItsSizeIsRejectedUpFront() throws {
        let tiler = try LJ92TiledEncoder(tileWidth: 16, tileHeight: 16, samplesPerPixel: 1, precision: 12)
        #expect(throws: LJ92Error(.invalidInput)) {
            try tiler.encodeInBackground([UInt16](repeating: 0, count: 100), width: 16, height: 16)
        }
    }
}
