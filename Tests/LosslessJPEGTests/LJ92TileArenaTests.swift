import Testing

@testable import LosslessJPEG

/// The tile arena: each worker encodes its tiles one after another into a slab, in place; a stream that outgrows
/// the rest of its slab moves to a new one with its bytes intact.
@Suite struct LJ92TileArenaTests {
    /// Writes `count` bytes of a pattern through the sink (whole bytes, none 0xFF, so no stuffing).
    func fill(_ sink: inout LJ92BitSink, count: Int, seed: Int) -> [UInt8] {
        var expected: [UInt8] = []
        for index in 0..<count {
            let byte = UInt8((index * 7 + seed) % 251)
            sink.reserve(8)
            sink.write(UInt64(byte), length: 8)
            expected.append(byte)
        }
        return expected
    }

    @Test func tilesFollowEachOtherInTheWorkersSlab() throws {
        let arena = LJ92TileArena()
        var cursor = LJ92ArenaCursor(arena: arena)
        var tiles: [(LJ92TileBytes, [UInt8])] = []
        for seed in 0..<5 {
            var sink = try cursor.sink(capacity: 1000)
            let expected = fill(&sink, count: 1000 + seed, seed: seed)
            #expect(sink.isInLentBuffer)
            tiles.append((try cursor.keep(sink), expected))
        }
        #expect(arena.mappedByteCount == LJ92TileArena.slabByteCount)
        for (index, (tile, expected)) in tiles.enumerated() {
            #expect([UInt8](tile.bytes) == expected, "tile \(index)")
            if index > 0 {
                let previous = tiles[index - 1].0.bytes
                #expect(tile.bytes.baseAddress == previous.baseAddress.map { $0 + previous.count })
            }
        }
        // Slabs start at a huge-page boundary.
        let first = try #require(tiles.first?.0.bytes.baseAddress)
        #expect(UInt(bitPattern: first) % UInt(LJ92TileArena.hugePageByteCount) == 0)
    }

    @Test func aStreamThatOutgrowsItsSlabMovesWithItsBytes() throws {
        let arena = LJ92TileArena()
        var cursor = LJ92ArenaCursor(arena: arena)
        // Fill most of the first slab, then write a stream longer than what is left of it.
        var sink = try cursor.sink(capacity: 100)
        let first = fill(&sink, count: LJ92TileArena.slabByteCount - 5000, seed: 1)
        let firstTile = try cursor.keep(sink)
        var growing = try cursor.sink(capacity: 100)
        let second = fill(&growing, count: 20000, seed: 2)
        #expect(!growing.isInLentBuffer)
        let secondTile = try cursor.keep(growing)
        #expect([UInt8](firstTile.bytes) == first)
        #expect([UInt8](secondTile.bytes) == second)
        #expect(arena.mappedByteCount == 2 * LJ92TileArena.slabByteCount)
        // A stream larger than a slab gets a slab of its own.
        var large = try cursor.sink(capacity: LJ92TileArena.slabByteCount + 1)
        let third = fill(&large, count: 5000, seed: 3)
        #expect([UInt8](try cursor.keep(large).bytes) == third)
        #expect(arena.mappedByteCount == 2 * LJ92TileArena.slabByteCount + 6 << 20)
    }

    @Test func theArrayOutputReusesOneBuffer() throws {
        let output = LJ92ArrayOutput()
        var sink = try output.sink(capacity: 500)
        let first = fill(&sink, count: 500, seed: 4)
        #expect(try output.keep(sink) == first)
        var again = try output.sink(capacity: 400)
        #expect(again.isInLentBuffer)
        let second = fill(&again, count: 3000, seed: 5)
        #expect(!again.isInLentBuffer)
        #expect(try output.keep(again) == second)
    }
}
