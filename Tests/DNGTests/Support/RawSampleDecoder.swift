import LosslessJPEG

/// Turns the raw IFD's chunks, as the test-only libtiff reader returns them, back into samples: uncompressed strips
/// directly, lossless JPEG tiles with the project's own LJ92 decoder.
enum RawSampleDecoder {
    /// The `width × height × planes` samples of the raw IFD, row-major and interleaved.
    static func samples(of directory: TIFFReadBack.Directory, planes: Int) throws -> [UInt16] {
        switch directory.compression {
        case 1:
            return try TIFFReadBack.uncompressedSamples(directory)
        case 7:
            guard let tileWidth = directory.tileWidth, let tileHeight = directory.tileHeight else {
                throw TestFailure("lossless data is expected in tiles")
            }
            let (width, height) = (directory.width, directory.height)
            let across = (width + tileWidth - 1) / tileWidth
            var output = [UInt16](repeating: 0, count: width * height * planes)
            for (index, chunk) in directory.chunks.enumerated() {
                let image = try LJ92Decoder.decode(chunk)
                // Whatever the component layout, a tile's JPEG rows are the tile's rows of samples.
                guard image.height == tileHeight, image.frame.samplesPerRow == tileWidth * planes else {
                    throw TestFailure("tile \(index) is \(image.width)×\(image.height)×\(image.components)")
                }
                let x0 = (index % across) * tileWidth
                let y0 = (index / across) * tileHeight
                for row in 0..<min(tileHeight, height - y0) {
                    let count = min(tileWidth, width - x0) * planes
                    let source = row * tileWidth * planes
                    let target = ((y0 + row) * width + x0) * planes
                    output[target..<(target + count)] = image.samples[source..<(source + count)]
                }
            }
            return output
        default:
            throw TestFailure("compression \(directory.compression)")
        }
    }
}
