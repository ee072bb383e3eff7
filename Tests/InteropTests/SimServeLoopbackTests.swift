import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `rawcap sim serve` is reachable from this machine only unless told otherwise: its default address is loopback,
/// it says so, and the socket the kernel holds is bound to 127.0.0.1 (not to every interface).
@Suite(.serialized, .timeLimit(.minutes(2))) struct SimServeLoopbackTests {
    @Test func theHelpNamesLoopbackAsTheDefault() async throws {
        let help = try await Subprocess.runDetached(try RawcapBinary.path(), ["sim", "serve", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("127.0.0.1:15740"), "\(help.output)")
    }

    /// `--listen :0` (no host) means 127.0.0.1: the listening line says so, and /proc/net/tcp shows the listening
    /// socket bound to 127.0.0.1, not to 0.0.0.0. (The default port, 15740, may be taken on a shared machine; the
    /// help text test covers the default address.)
    @Test func aListenWithoutHostBindsLoopbackOnly() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try RawcapBinary.path())
        process.arguments = ["sim", "serve", "--listen", ":0", "--json", "--sensor", "96x64"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        let line: String = await withCheckedContinuation { continuation in
            DispatchQueue(label: "rawcap.test.loopback").async {
                var bytes = Data()
                while true {
                    let byte = output.fileHandleForReading.readData(ofLength: 1)
                    if byte.isEmpty || byte.first == 0x0A { break }
                    bytes.append(byte)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        #expect(object["host"] as? String == "127.0.0.1")
        let port = try #require((object["port"] as? Int).flatMap(UInt16.init(exactly:)))
        #expect(try Self.listeningSockets(port: port) == ["127.0.0.1"])
        kill(process.processIdentifier, SIGTERM)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue(label: "rawcap.test.loopback.wait").async {
                process.waitUntilExit()
                continuation.resume()
            }
        }
        #expect(process.terminationStatus == 0)
    }

    /// The local addresses of TCP sockets in LISTEN state on `port` (IPv4, /proc/net/tcp: hex address in network
    /// order as a little-endian word, state 0A).
    static func listeningSockets(port: UInt16) throws -> [String] {
        let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        var found: [String] = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 3, fields[3] == "0A" else { continue }
            let local = fields[1].split(separator: ":")
            guard local.count == 2, UInt16(local[1], radix: 16) == port, let word = UInt32(local[0], radix: 16) else {
                continue
            }
            found.append((0..<4).map { String((word >> ($0 * 8)) & 0xFF) }.joined(separator: "."))
        }
        return found
    }
}
