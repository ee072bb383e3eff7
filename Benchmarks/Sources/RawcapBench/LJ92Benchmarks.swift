import Dispatch
import LosslessJPEG

/// Lossless JPEG encode and decode of a 6000 × 4000 14-bit CFA frame in DNG's layout (256 × 256 tiles, each a
/// 128 × 256 JPEG frame of 2 components, predictor 1), on one thread and on all cores, against a `memcpy` of the
/// same 48 MB.
///
/// Targets (notes/dng-facts.md §0 fact 10 and the DNG writer's budget): the DNG writer must reach 400 MB/s on this
/// 2-core machine, so the encoder needs 250 MB/s per core; the decoder 100 MB/s. Peers on the same frame: Adobe's
/// DNG SDK about 230 MB/s, PiDNG 103 MB/s.
enum LJ92Benchmarks: BenchmarkGroup {
    static let name = "LJ92"
    static let tile = 256

    static func makeRows(options: BenchmarkOptions) throws -> [BenchmarkRow] {
        let width = options.frameWidth
        let height = options.frameHeight
        let plane = SyntheticFrame.bayer(width: width, height: height, bitsPerSample: 14, seed: 1)
        let bytes = plane.count * 2
        let single = try LJ92TiledEncoder(
            tileWidth: tile, tileHeight: tile, samplesPerPixel: 1, precision: 14, threadCount: 1)
        let parallel = try LJ92TiledEncoder(
            tileWidth: tile, tileHeight: tile, samplesPerPixel: 1, precision: 14, threadCount: options.threads)
        // What the DNG writer uses: Huffman tables from every 4th row.
        let sampled = try LJ92TiledEncoder(
            tileWidth: tile, tileHeight: tile, samplesPerPixel: 1, precision: 14,
            tables: .sampledPerComponent(rowStep: 4), threadCount: 1)
        let sampledParallel = try LJ92TiledEncoder(
            tileWidth: tile, tileHeight: tile, samplesPerPixel: 1, precision: 14,
            tables: .sampledPerComponent(rowStep: 4), threadCount: options.threads)
        let sampledSize = try sampled.encode(plane, width: width, height: height).reduce(0) { $0 + $1.count }

        // Encode once up front: the decode rows need the tiles, and the round trip is checked before any timing.
        let tiles = try single.encode(plane, width: width, height: height)
        let grid = single.tileGrid(width: width, height: height)
        let decoder = TileDecoder(tiles: tiles, across: grid.across, down: grid.down, tile: tile)
        let decoded = try decoder.decode(threads: 1)
        for y in 0..<height {
            for x in 0..<width where decoded[y * decoder.planeWidth + x] != plane[y * width + x] {
                throw BenchmarkError("LJ92 round trip differs at (\(x), \(y))")
            }
        }
        let compressed = tiles.reduce(0) { $0 + $1.count }
        let sizeNote = "\(compressed / 1000) kB, \(BenchmarkFormat.percent(compressed, of: bytes)) of input"

        let source = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        let target = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        plane.withUnsafeBytes { UnsafeMutableRawBufferPointer(start: source, count: bytes).copyMemory(from: $0) }
        target.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)

        let memcpyName = "memcpy \(bytes / 1_000_000) MB"
        let threads = options.threads
        return [
            BenchmarkRow(group: name, name: memcpyName, bytes: bytes, reference: nil) {
                target.copyMemory(from: source, byteCount: bytes)
            },
            BenchmarkRow(
                group: name, name: "encode 256² tiles, 1 thread", bytes: bytes, reference: memcpyName,
                note: { sizeNote }
            ) {
                _ = try? single.encode(plane, width: width, height: height)
            },
            BenchmarkRow(
                group: name, name: "encode 256² tiles, \(threads) threads", bytes: bytes, reference: memcpyName
            ) {
                _ = try? parallel.encode(plane, width: width, height: height)
            },
            BenchmarkRow(
                group: name, name: "encode 256², tables from every 4th row, 1 thread", bytes: bytes,
                reference: memcpyName,
                note: { "\(sampledSize / 1000) kB, \(BenchmarkFormat.percent(sampledSize, of: bytes)) of input" }
            ) {
                _ = try? sampled.encode(plane, width: width, height: height)
            },
            BenchmarkRow(
                group: name, name: "encode 256², tables from every 4th row, \(threads) threads", bytes: bytes,
                reference: memcpyName
            ) {
                _ = try? sampledParallel.encode(plane, width: width, height: height)
            },
            BenchmarkRow(group: name, name: "decode 256² tiles, 1 thread", bytes: bytes, reference: memcpyName) {
                _ = try? decoder.decode(threads: 1)
            },
            BenchmarkRow(
                group: name, name: "decode 256² tiles, \(threads) threads", bytes: bytes, reference: memcpyName
            ) {
                _ = try? decoder.decode(threads: threads)
            },
        ]
    }
}

/// Decodes DNG-style tiles back into a padded plane, optionally on several threads (what a DNG reader does).
struct TileDecoder: @unchecked Sendable {
    let tiles: [[UInt8]]
    let across: Int
    let down: Int
    let tile: Int
    var planeWidth: Int { across * tile }

    func decode(threads: Int) throws -> [UInt16] {
        var plane = [UInt16](repeating: 0, count: planeWidth * down * tile)
        var failures = [LJ92Error?](repeating: nil, count: tiles.count)
        plane.withUnsafeMutableBufferPointer { planeBuffer in
            failures.withUnsafeMutableBufferPointer { failureBuffer in
                let work = Work(decoder: self, plane: planeBuffer, failures: failureBuffer, workers: threads)
                if threads == 1 {
                    work.run(0)
                } else {
                    DispatchQueue.concurrentPerform(iterations: threads) { work.run($0) }
                }
            }
        }
        if let failure = failures.compactMap({ $0 }).first { throw failure }
        return plane
    }

    private struct Work: @unchecked Sendable {
        let decoder: TileDecoder
        let plane: UnsafeMutableBufferPointer<UInt16>
        let failures: UnsafeMutableBufferPointer<LJ92Error?>
        let workers: Int

        func run(_ worker: Int) {
            var index = worker
            while index < decoder.tiles.count {
                let x0 = (index % decoder.across) * decoder.tile
                let y0 = (index / decoder.across) * decoder.tile
                let start = y0 * decoder.planeWidth + x0
                do {
                    _ = try LJ92Decoder.decode(
                        decoder.tiles[index][...], into: UnsafeMutableBufferPointer(rebasing: plane[start...]),
                        rowStride: decoder.planeWidth)
                } catch {
                    failures[index] = error
                }
                index += workers
            }
        }
    }
}

/// A benchmark could not run as intended.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum BenchmarkFormat {
    static func percent(_ part: Int, of whole: Int) -> String {
        "\(Int((Double(part) / Double(whole) * 1000).rounded()) / 10).\(Int((Double(part) / Double(whole) * 1000).rounded()) % 10)%"
    }
}
