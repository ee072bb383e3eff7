import RawDecoders

#if canImport(Glibc)
    import Glibc
#endif

/// libFuzzer entry point: the path a vendor raw takes, LibRaw contained in rawcap's decode worker.
///
/// Each input goes through ``RawDecoders/RawDecoder/decode(_:)`` and ``RawDecoders/RawDecoder/embeddedPreview(_:)``
/// exactly as `convert`, `inspect`, `shoot` and `pull` hand a file over: rawcap's own reader for DNG and TIFF/EP,
/// LibRaw (in the worker, `rawcap decode-worker`) for everything else and for DNGs rawcap's reader refuses. LibRaw
/// is C code this fuzzer does not instrument, so the mutations are blind to its branches; what is under test is that
/// nothing it does — a segfault, a spin, a blow-up of memory, a lying answer — reaches this process: every input must
/// end in a result or a typed `DecodeError`, within the worker's limits, and a decoded image must be
/// self-consistent. The worker's binary is `RAWCAP_DECODE_WORKER` (`make fuzz` sets it to the release build).
private let contained: ContainedDecoder = {
    guard let path = getenv("RAWCAP_DECODE_WORKER").map({ String(cString: $0) }), access(path, X_OK) == 0 else {
        let message = "FuzzLibRaw: set RAWCAP_DECODE_WORKER to a rawcap binary (make fuzz builds and sets it)\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
    // Tighter than a command's limits, so a spinning input costs seconds, not a minute: the fuzzer's own -timeout
    // (10 s in make fuzz) must never be what ends a hang.
    let limits = ContainedDecoder.Limits(cpuSeconds: 2, wallSeconds: 5, addressSpaceBytes: 2 << 30)
    let decoder = ContainedDecoder(executable: path, arguments: ["decode-worker"], limits: limits)
    RawDecoder.containedDecoder = decoder
    return decoder
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLibRaw(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = contained
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))[...]
    _ = try? RawDecoder.embeddedPreview(bytes)
    guard let decoded = try? RawDecoder.decode(bytes) else { return 0 }
    // What came back over the worker's socket describes itself consistently.
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
