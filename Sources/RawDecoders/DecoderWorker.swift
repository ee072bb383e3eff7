import RawImage
import WireFormat

#if canImport(Glibc)
    import Glibc
#endif

/// The decoder worker: the process in which LibRaw runs when rawcap contains it (``ContainedDecoder``). The rawcap
/// binary runs it as a hidden subcommand of itself, so that no second binary has to be installed.
///
/// It reads requests from `input` until end of file, decodes each with ``LibRawDecoder`` and writes the reply to
/// `output` (``DecoderWire``). It holds nothing between requests. The limits it runs under (CPU time, address
/// space) are set from outside by ``ContainedDecoder`` with `prlimit`, so that they hold whatever the worker is.
public enum DecoderWorker {
    /// Serves requests until `input` ends; returns the exit status (0 at end of input, 70 when a reply cannot be
    /// written or a request is malformed).
    public static func serve(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) -> Int32 {
        // The worker is spawned from a thread of the Swift pool, whose signals are blocked, and the mask is
        // inherited: SIGXCPU (the CPU limit) must reach it.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        while true {
            var headerBytes = [UInt8](repeating: 0, count: DecoderWire.RequestHeader.byteCount)
            switch DescriptorReader.readFully(input, into: &headerBytes) {
            case .endOfFile: return 0
            case .failed: return 70
            case .complete: break
            }
            guard let header = DecoderWire.RequestHeader(headerBytes) else { return 70 }
            if header.kind == .identify {
                guard identify(header, input: input, output: output) else { return 70 }
                continue
            }
            var failed = false
            let bytes = [UInt8](unsafeUninitializedCapacity: header.length) { buffer, initialized in
                let result = DescriptorReader.readFully(input, into: UnsafeMutableRawBufferPointer(buffer))
                failed = result != .complete
                initialized = failed ? 0 : buffer.count
            }
            if failed { return 70 }
            setLimits(cpuSeconds: header.cpuSeconds, addressSpaceMegabytes: header.addressSpaceMegabytes)
            let sent: Bool
            switch header.kind {
            case .decode: sent = reply(decoding: bytes, to: output)
            case .preview: sent = reply(previewOf: bytes, to: output)
            case .selfTest: sent = misbehave(DecoderWire.SelfTest(rawValue: bytes.first ?? 0), output: output)
            case .identify: sent = false  // read above, with its omission
            }
            if !sent { return 70 }
        }
    }

    /// Limits this process to `cpuSeconds` more of CPU time (SIGXCPU ends it past that; the hard limit is left as it
    /// is, so the next file can be given its own) and `addressSpaceMegabytes` of address space (0: unchanged).
    static func setLimits(cpuSeconds: Int, addressSpaceMegabytes: Int) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let used = Int(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1
        for (resource, value) in [(RLIMIT_CPU, used + cpuSeconds), (RLIMIT_AS, addressSpaceMegabytes << 20)]
        where value > 0 && (resource != RLIMIT_CPU || cpuSeconds > 0) {
            var limit = rlimit()
            guard getrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0 else { continue }
            limit.rlim_cur = min(rlim_t(value), limit.rlim_max)
            _ = setrlimit(__rlimit_resource_t(resource.rawValue), &limit)
        }
    }

    /// Does what a ``DecoderWire/SelfTest`` asks; replies only where the misbehaviour ends.
    private static func misbehave(_ test: DecoderWire.SelfTest?, output: Int32) -> Bool {
        switch test {
        case .crash?:
            raise(SIGSEGV)
        case .spin?:
            var counter: UInt64 = 0
            while true {
                counter &+= 1
                if counter == 0 { break }
            }
        case .allocate?:
            var held: [UnsafeMutableRawPointer] = []
            while let block = malloc(64 << 20) {
                memset(block, 1, 64 << 20)
                held.append(block)
            }
            let megabytes = held.count * 64
            for block in held { free(block) }
            return send(.failure, DecoderWire.Failure(DecodeError(.tooLarge, "allocated \(megabytes) MiB")), to: output)
        case .sleep?:
            while true { sleep(3600) }
        case nil:
            break
        }
        return send(.failure, DecoderWire.Failure(DecodeError(.unsupported, "self-test ended")), to: output)
    }

    private static func reply(decoding bytes: [UInt8], to output: Int32) -> Bool {
        do {
            let decoded = try LibRawDecoder.decode(bytes[...])
            guard let frame = decoded.frame else {
                return send(.failure, DecoderWire.Failure(DecodeError(.unsupported, "not a CFA image")), to: output)
            }
            let json = DecoderWire.encode(DecoderWire.Frame(decoded, frame: frame))
            let header = DecoderWire.ReplyHeader(
                kind: .frame, jsonLength: json.count, payloadLength: frame.samples.count * 2)
            guard DescriptorReader.writeFully(output, header.bytes + json) else { return false }
            return frame.samples.withUnsafeBytes { DescriptorReader.writeFully(output, $0) }
        } catch {
            return send(.failure, DecoderWire.Failure(error), to: output)
        }
    }

    /// Reads an ``DecoderWire/RequestKind/identify`` request's file into a zeroed buffer, leaving its omission as
    /// zeros (`calloc` of a large block: the kernel's zero pages, never written), and replies with LibRaw's
    /// description of it; `false` when the request is malformed or the reply cannot be written.
    private static func identify(_ header: DecoderWire.RequestHeader, input: Int32, output: Int32) -> Bool {
        var omissionBytes = [UInt8](repeating: 0, count: DecoderWire.Omission.byteCount)
        guard header.length >= omissionBytes.count, DescriptorReader.readFully(input, into: &omissionBytes) == .complete,
            let omission = DecoderWire.Omission(omissionBytes, payloadLength: header.length)
        else { return false }
        let fileLength = header.length - DecoderWire.Omission.byteCount + omission.length
        guard fileLength > 0, let file = calloc(fileLength, 1) else { return false }
        defer { free(file) }
        let afterStart = omission.start + omission.length
        for part in [
            UnsafeMutableRawBufferPointer(start: file, count: omission.start),
            UnsafeMutableRawBufferPointer(start: file + afterStart, count: fileLength - afterStart),
        ] where !part.isEmpty {
            guard DescriptorReader.readFully(input, into: part) == .complete else { return false }
        }
        setLimits(cpuSeconds: header.cpuSeconds, addressSpaceMegabytes: header.addressSpaceMegabytes)
        do {
            let frame = try LibRawDecoder.identify(UnsafeRawBufferPointer(start: file, count: fileLength))
            let json = DecoderWire.encode(frame)
            let reply = DecoderWire.ReplyHeader(kind: .frame, jsonLength: json.count, payloadLength: 0)
            return DescriptorReader.writeFully(output, reply.bytes + json)
        } catch {
            return send(.failure, DecoderWire.Failure(error), to: output)
        }
    }

    private static func reply(previewOf bytes: [UInt8], to output: Int32) -> Bool {
        do {
            let payload: [UInt8]
            let thumbnail: DecoderWire.Thumbnail
            switch try LibRawDecoder.preview(bytes[...]) {
            case nil:
                (thumbnail, payload) = (DecoderWire.Thumbnail(kind: "none", width: 0, height: 0), [])
            case .jpeg(let jpeg, let width, let height)?:
                (thumbnail, payload) = (DecoderWire.Thumbnail(kind: "jpeg", width: width, height: height), jpeg)
            case .rgb(let image)?:
                (thumbnail, payload) = (
                    DecoderWire.Thumbnail(kind: "rgb", width: image.width, height: image.height), image.pixels
                )
            }
            let json = DecoderWire.encode(thumbnail)
            let header = DecoderWire.ReplyHeader(kind: .preview, jsonLength: json.count, payloadLength: payload.count)
            return DescriptorReader.writeFully(output, header.bytes + json + payload)
        } catch {
            return send(.failure, DecoderWire.Failure(error), to: output)
        }
    }

    private static func send(_ kind: DecoderWire.ReplyKind, _ value: some Encodable, to output: Int32) -> Bool {
        let json = DecoderWire.encode(value)
        let header = DecoderWire.ReplyHeader(kind: kind, jsonLength: json.count, payloadLength: 0)
        return DescriptorReader.writeFully(output, header.bytes + json)
    }
}

/// Whole reads and writes on a blocking descriptor (the worker's side of the socket).
enum DescriptorReader {
    enum Result { case complete, endOfFile, failed }

    static func readFully(_ descriptor: Int32, into bytes: inout [UInt8]) -> Result {
        bytes.withUnsafeMutableBytes { readFully(descriptor, into: $0) }
    }

    /// Fills `buffer`; `.endOfFile` when the input ended before its first byte.
    static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result {
        guard let base = buffer.baseAddress else { return .complete }
        var filled = 0
        while filled < buffer.count {
            let count = read(descriptor, base + filled, buffer.count - filled)
            if count < 0 && errno == EINTR { continue }
            if count == 0 { return filled == 0 ? .endOfFile : .failed }
            guard count > 0 else { return .failed }
            filled += count
        }
        return .complete
    }

    static func writeFully(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeFully(descriptor, $0) }
    }

    static func writeFully(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        var written = 0
        while written < buffer.count {
            let count = write(descriptor, base + written, buffer.count - written)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            written += count
        }
        return true
    }
}
