import LosslessJPEG

/// libFuzzer entry point: decodes the input as a lossless JPEG stream.
///
/// Any `LJ92Error` is a correct outcome; a crash, a trap, a hang or a huge allocation is a finding. When decoding
/// succeeds, the result must be self-consistent, and decoding into a strided buffer must give the same samples.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLJ92(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    guard let image = try? LJ92Decoder.decode(bytes) else { return 0 }
    let frame = image.frame
    guard image.samples.count == frame.sampleCount, (try? LJ92Decoder.frameHeader(of: bytes)) == frame else {
        fatalError("inconsistent result for a decodable stream")
    }
    // The strided entry point must agree with the allocating one.
    let stride = frame.samplesPerRow + 3
    var strided = [UInt16](repeating: 0, count: frame.height * stride)
    let header = strided.withUnsafeMutableBufferPointer { buffer in
        try? LJ92Decoder.decode(bytes[...], into: buffer, rowStride: stride)
    }
    guard header == frame else { fatalError("strided decode failed where the plain decode succeeded") }
    for row in 0..<frame.height {
        let start = row * frame.samplesPerRow
        guard
            strided[(row * stride)..<(row * stride + frame.samplesPerRow)].elementsEqual(
                image.samples[start..<(start + frame.samplesPerRow)])
        else { fatalError("strided decode differs in row \(row)") }
    }
    return 0
}
