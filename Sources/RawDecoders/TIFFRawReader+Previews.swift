import RawImage

extension TIFFRawReader {
    /// The largest preview in a DNG or TIFF/EP file: a JPEG preview IFD (Compression 7, 8-bit, one strip or tile
    /// holding a complete JPEG stream, as DNG previews are written) is preferred to an uncompressed 8-bit RGB
    /// thumbnail; `nil` when the file has neither.
    ///
    /// - Throws: ``DecodeError`` when an RGB thumbnail's strips are damaged.
    public static func embeddedPreview(
        in structure: TIFFStructure, bytes: ArraySlice<UInt8>
    ) throws(DecodeError) -> EmbeddedPreview? {
        let rawOffset = try? rawDirectory(in: structure).offset
        let candidates = structure.directories
            .filter { $0.offset != rawOffset && $0.isPreview }
            .sorted { $0.width * $0.height > $1.width * $1.height }
        for directory in candidates where directory.compression == .jpeg && directory.bitsPerSample == 8 {
            guard directory.dataOffsets.count == 1, let offset = Int(exactly: directory.dataOffsets[0]),
                let count = Int(exactly: directory.dataByteCounts[0]), count >= 4, offset <= bytes.count - count
            else { continue }
            let stream = bytes[(bytes.startIndex + offset)..<(bytes.startIndex + offset + count)]
            // A JPEG stream starts with SOI (FF D8); tables kept in JPEGTables would make it incomplete.
            guard stream.first == 0xFF, stream.dropFirst().first == 0xD8 else { continue }
            return .jpeg(Array(stream), width: directory.width, height: directory.height)
        }
        for directory in candidates
        where directory.compression == .none && directory.samplesPerPixel == 3 && directory.bitsPerSample == 8 {
            let samples = try TIFFImageData.samples(of: directory, in: bytes, byteOrder: structure.header.byteOrder)
            do {
                return .rgb(
                    try RGBImage8(
                        width: directory.width, height: directory.height,
                        pixels: samples.map { UInt8(truncatingIfNeeded: $0) }))
            } catch {
                throw DecodeError(.corrupt, "\(directory.path): \(error)")
            }
        }
        return nil
    }
}
