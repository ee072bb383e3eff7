import FoundationEssentials

#if canImport(Glibc)
    import Glibc

    private let systemWrite = Glibc.write
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    import Darwin

    private let systemWrite = Darwin.write
    private let systemRead = Darwin.read
#endif

/// Whole writes and reads on a file descriptor, for standard output and error and for pipes (`FileHandle`'s role).
public enum DescriptorIO {
    /// Writes every byte of `bytes` to `descriptor`, again after a partial write or `EINTR`; gives up silently on
    /// any other error (a closed or full stream: a message nobody can read is not worth a crash).
    public static func write(_ bytes: some ContiguousBytes, to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, start + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// `text` in UTF-8 to standard output.
    public static func writeStandardOutput(_ text: String) { write(Array(text.utf8), to: STDOUT_FILENO) }

    /// `text` in UTF-8 to standard error.
    public static func writeStandardError(_ text: String) { write(Array(text.utf8), to: STDERR_FILENO) }

    /// Everything `descriptor` delivers until end of file (or an error other than `EINTR`).
    public static func readToEnd(_ descriptor: Int32) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return data }
            data.append(contentsOf: chunk[0..<count])
        }
    }
}
