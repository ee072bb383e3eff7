import ArgumentParser
import RawDecoders

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand {
    /// `rawcap decode-worker`: hidden. The process LibRaw runs in (``RawDecoders/DecoderWorker``): rawcap starts its
    /// own binary with this subcommand once per command that meets a vendor raw file, so that a crash, a hang or a
    /// memory blow-up in LibRaw costs that one file (docs/containment.md).
    struct DecodeWorker: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decode-worker",
            abstract: "Decode raw files for another rawcap process (internal).",
            shouldDisplay: false)

        func run() throws {
            let status = DecoderWorker.serve()
            if status != 0 { throw ExitCode(status) }
        }

        /// The decoder every command uses for vendor raw files: this binary's `decode-worker`, with the limits of
        /// `RAWCAP_DECODER_LIMITS` (`cpu=SECONDS,wall=SECONDS,memory=MIB`, each optional) when it is set;
        /// `RAWCAP_DECODER=in-process` calls LibRaw in this process instead.
        static func containedDecoder(environment: [String: String]) -> ContainedDecoder? {
            guard environment["RAWCAP_DECODER"] != "in-process", let executable = ownExecutable() else { return nil }
            var limits = ContainedDecoder.Limits()
            for item in (environment["RAWCAP_DECODER_LIMITS"] ?? "").split(separator: ",") {
                let parts = item.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let value = Double(parts[1]), value > 0, value < 1e6 else { continue }
                switch parts[0] {
                case "cpu": limits.cpuSeconds = max(1, Int(value.rounded(.up)))
                case "wall": limits.wallSeconds = value
                case "memory": limits.addressSpaceBytes = Int(value) << 20
                default: continue
                }
            }
            return ContainedDecoder(executable: executable, arguments: ["decode-worker"], limits: limits)
        }

        /// This process's executable, from /proc/self/exe.
        static func ownExecutable() -> String? {
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
