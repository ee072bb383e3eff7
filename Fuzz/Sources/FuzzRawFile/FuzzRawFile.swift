import RawDecoders

/// libFuzzer entry point: reads the input as a raw file with rawcap's own readers: the TIFF reader (DNG and
/// TIFF/EP) and the in-place readers of uncompressed NEF, ARW and RAF samples (`RawDecoder.vendorSamplesInPlace`).
///
/// LibRaw, which is C code this fuzzer does not instrument, is never called: vendor files that rawcap does not read
/// itself are skipped (FuzzLibRaw feeds the contained LibRaw path). Any `DecodeError` is a correct outcome; a crash, a trap, a hang or a
/// huge allocation is a finding. A file that decodes must also give a structure, and its preview lookup must not
/// fail in any way other than a typed error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))[...]
    switch RawDecoder.detectFormat(bytes) {
    case .vendor:
        // rawcap's in-place readers of uncompressed NEF, ARW and RAF (no LibRaw): any DecodeError is fine, the
        // samples must cover the readout exactly.
        guard let read = try? RawDecoder.vendorSamplesInPlace(bytes) else { return 0 }
        guard read.samples.count == read.width * read.height else {
            fatalError("read \(read.samples.count) samples for \(read.width)×\(read.height)")
        }
        return 0
    case .dng, .tiffEP:
        _ = try? TIFFRawReader.embeddedPreview(in: TIFFRawReader.structure(of: bytes), bytes: bytes)
        // rawcap's reader only: RawDecoder.decode would hand a file it refuses as unsupported to LibRaw.
        guard let decoded = try? TIFFRawReader.decode(bytes) else { return 0 }
        // A decoded image is self-consistent: the sample buffer covers it exactly, and linearization (a table
        // from the file) either applies or throws.
        switch decoded.image {
        case .cfa(let frame):
            guard frame.samples.count == frame.width * frame.height else {
                fatalError("decoded \(frame.samples.count) samples for \(frame.width)×\(frame.height)")
            }
        case .linear(let image):
            guard image.samples.count == image.width * image.height * 3 else {
                fatalError("decoded \(image.samples.count) samples for \(image.width)×\(image.height)×3")
            }
        }
        _ = try? decoded.applyingLinearization()
        return 0
    }
}
