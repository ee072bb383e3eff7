import CameraEmulator
import PTP
import Testing

/// `--fault` strings.
@Suite struct EmulatorFaultTests {
    @Test func everyFaultParses() throws {
        let faults = try EmulatorFault.parse([
            "disconnect-after=1000000", "busy=3,stall=getobject", " slow=5MB/s ", "lose-event=objectadded",
            "card-full", "busy=1:GetPartialObject", "lose-event=CaptureComplete:2", "slow=1.5MiB/s", "slow=800000",
        ])
        #expect(
            faults.map(\.kind) == [
                .disconnectAfter(bytes: 1_000_000), .busy(count: 3, operation: .initiateCapture),
                .stall(operation: .getObject), .slow(bytesPerSecond: 5_000_000), .loseEvent(.objectAdded, count: 1),
                .cardFull, .busy(count: 1, operation: .getPartialObject), .loseEvent(.captureComplete, count: 2),
                .slow(bytesPerSecond: 1_572_864), .slow(bytesPerSecond: 800_000),
            ])
        #expect(faults.map(\.description).prefix(3) == ["disconnect-after=1000000", "busy=3:InitiateCapture", "stall=GetObject"])
    }

    @Test(arguments: [
        "explode", "busy", "busy=0", "busy=x", "busy=2:launch", "stall=", "stall=frobnicate", "slow=fast",
        "slow=0MB/s", "lose-event=sunrise", "card-full=yes", "disconnect-after=-5",
    ])
    func badFaultsAreRejected(text: String) {
        #expect(throws: EmulatorError(.invalidFault)) { _ = try EmulatorFault(parsing: text) }
    }

    @Test func faultsRoundTripThroughTheirDescriptions() throws {
        for text in ["busy=3:GetObject", "stall=InitiateCapture", "lose-event=ObjectAdded:2", "card-full"] {
            let fault = try EmulatorFault(parsing: text)
            #expect(try EmulatorFault(parsing: fault.description) == fault)
        }
    }
}
