import WireFormat

/// Unpacks uncompressed TIFF sample data: 8-bit bytes, 16-bit words in the file's byte order, and 9…15-bit samples
/// packed most significant bit first with each row starting on a byte boundary.
///
/// DNG requires non-8/16/32-bit samples to be packed big-endian (FillOrder 1) whatever the file's byte order
/// (DNG 1.7 p.19, BitsPerSample), and TIFF 6.0 pads every row to a whole byte (§8, StripByteCounts).
enum Unpacker {
    /// Unpacks one strip or tile into its place in `output` (an image of `geometry.width × geometry.height ×
    /// geometry.samplesPerPixel` samples), dropping the parts of edge tiles that lie outside the image.
    ///
    /// - Throws: ``DecodeError`` `.truncated` when `data` holds fewer bytes than the visible rows need.
    static func unpack(
        _ data: ArraySlice<UInt8>, geometry: TIFFImageData.Geometry, region: TIFFImageData.Region,
        byteOrder: ByteOrder, into output: UnsafeMutableBufferPointer<UInt16>
    ) throws(DecodeError) {
        let spp = geometry.samplesPerPixel
        let bits = geometry.bitsPerSample
        let storedRowSamples = region.storedWidth * spp
        let rowBytes = (storedRowSamples * bits + 7) / 8
        let visibleRowSamples = region.visibleWidth * spp
        guard region.visibleHeight > 0, visibleRowSamples > 0 else { return }
        // Every visible row must be complete; padding after the last visible sample may be missing.
        let needed = rowBytes * (region.visibleHeight - 1) + (visibleRowSamples * bits + 7) / 8
        guard data.count >= needed else {
            throw DecodeError(
                .truncated, at: data.startIndex,
                "\(geometry.path): strip/tile at (\(region.x), \(region.y)) holds \(data.count) bytes, needs \(needed)")
        }
        let outputStride = geometry.width * spp
        data.withUnsafeBytes { source in
            guard let sourceBase = source.baseAddress, let outputBase = output.baseAddress else { return }
            for row in 0..<region.visibleHeight {
                let input = sourceBase + row * rowBytes
                let destination = outputBase + (region.y + row) * outputStride + region.x * spp
                switch bits {
                case 8:
                    for index in 0..<visibleRowSamples {
                        destination[index] = UInt16(input.load(fromByteOffset: index, as: UInt8.self))
                    }
                case 16:
                    for index in 0..<visibleRowSamples {
                        let word = input.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self)
                        destination[index] = byteOrder == .little ? UInt16(littleEndian: word) : UInt16(bigEndian: word)
                    }
                default:
                    unpackMSBFirst(input, bits: bits, count: visibleRowSamples, into: destination)
                }
            }
        }
    }

    /// Reads `count` samples of `bits` bits, most significant bit first, from `input`.
    ///
    /// The caller guarantees `(count × bits + 7) / 8` readable bytes; the accumulator never holds more than
    /// `bits + 7` meaningful bits, so the 64-bit shift cannot lose any.
    @inline(__always)
    static func unpackMSBFirst(
        _ input: UnsafeRawPointer, bits: Int, count: Int, into destination: UnsafeMutablePointer<UInt16>
    ) {
        let mask: UInt64 = (1 << UInt64(bits)) - 1
        var accumulator: UInt64 = 0
        var available = 0
        var byteIndex = 0
        for index in 0..<count {
            while available < bits {
                accumulator = (accumulator << 8) | UInt64(input.load(fromByteOffset: byteIndex, as: UInt8.self))
                byteIndex += 1
                available += 8
            }
            available -= bits
            destination[index] = UInt16(truncatingIfNeeded: (accumulator >> UInt64(available)) & mask)
        }
    }
}
