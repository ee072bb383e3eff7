import PTPIP
import Testing

@Suite struct PTPIPAddressTests {
    @Test(arguments: [
        ("192.168.1.10", "192.168.1.10", UInt16(15740)),
        ("camera.local:15741", "camera.local", 15741),
        ("[fe80::1%wlan0]:15740", "fe80::1%wlan0", 15740),
        ("[::1]", "::1", 15740),
        ("::1", "::1", 15740),
        ("2001:db8::7", "2001:db8::7", 15740),
        ("localhost:1", "localhost", 1),
    ])
    func parsesHostAndPort(text: String, host: String, port: UInt16) throws {
        let address = try PTPIPAddress(parsing: text)
        #expect(address.host == host && address.port == port)
    }

    @Test(arguments: ["", ":15740", "[::1", "[::1]x", "host:0", "host:65536", "host:abc", "[]:1"])
    func rejectsMalformedAddresses(text: String) {
        #expect(throws: PTPIPAddressError.self) { try PTPIPAddress(parsing: text) }
    }

    @Test func descriptionBracketsIPv6() {
        #expect(PTPIPAddress(host: "::1", port: 15740).description == "[::1]:15740")
        #expect(PTPIPAddress(host: "10.0.0.2").description == "10.0.0.2:15740")
    }

    @Test func numericAddressesParseWithoutTheResolver() async throws {
        #expect(SocketAddress(numericHost: "10.1.2.3", port: 5)?.addressBytes == [10, 1, 2, 3])
        #expect(SocketAddress(numericHost: "::1", port: 5)?.addressBytes == Array(repeating: 0, count: 15) + [1])
        #expect(SocketAddress(numericHost: "camera.local", port: 5) == nil)
        #expect(SocketAddress.loopback(port: 15740).description == "127.0.0.1:15740")
        #expect(SocketAddress(numericHost: "::1", port: 80)?.description == "[::1]:80")
        let resolved = try await SocketAddress.resolve(host: "localhost", port: 15740)
        #expect(resolved.first?.port == 15740)
    }

    @Test func unknownHostsFailWithTheResolversMessage() async {
        await #expect(throws: HostResolutionError.self) {
            _ = try await SocketAddress.resolve(host: "no-such-host.invalid", port: 15740)
        }
    }
}
