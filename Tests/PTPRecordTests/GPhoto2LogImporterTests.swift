import Logging
import PTP
import PTPRecord
import Testing

/// `rawcap replay import`'s parser, on logs the tests write in libgphoto2's two layouts (``GPhoto2LogWriter``):
/// multi-read data phases, events, PTP/IP, cut and damaged dumps, pasted text; the recording it makes round-trips
/// through pcapng and replays through the production session code.
@Suite struct GPhoto2LogImporterTests {
    typealias Log = GPhoto2LogWriter

    static let info = Log.deviceInfoBytes()
    static let storages: [UInt8] = [2, 0, 0, 0, 1, 0, 1, 0, 2, 0, 1, 0]

    /// OpenSession; GetDeviceInfo whose data phase is a 512-byte read with the header and a continuation read;
    /// an ObjectAdded event on the interrupt endpoint; GetStorageIDs.
    static func usbSession(_ format: Log.Format) -> Log {
        var log = Log(format: format)
        log.note("gphoto2 2.5.30, libgphoto2 2.5.30")
        log.write(Log.command(.openSession, 0, [1]))
        log.read(Log.response(.ok, 0))
        log.note("ptp_usb_getdata (2): Reading PTP_OC 0x1001 (Get device info) data...")
        log.write(Log.command(.getDeviceInfo, 1))
        let container = Log.data(.getDeviceInfo, 1, info)
        log.read(Array(container.prefix(512)), asked: 512)
        log.read(Array(container.dropFirst(512)), asked: 512)
        log.read(Log.response(.ok, 1))
        if format == .new { log.interrupt(Log.event(.objectAdded, [0x1234])) }
        log.write(Log.command(.getStorageIDs, 2))
        log.read(Log.data(.getStorageIDs, 2, storages))
        log.read(Log.response(.ok, 2))
        return log
    }

    @Test(arguments: [Log.Format.old, .new]) func aUSBSessionImports(format: Log.Format) throws {
        let result = GPhoto2LogImporter.importLog(Self.usbSession(format).text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.format == (format == .old ? .old : .new))
        #expect(result.libgphoto2Version == "2.5.30")
        let conversation = result.conversation
        #expect(conversation.transport == .usb)
        #expect(conversation.transactions.map(\.request.code) == [.openSession, .getDeviceInfo, .getStorageIDs])
        #expect(conversation.transactions.map(\.response.code) == [.ok, .ok, .ok])
        #expect(conversation.transactions[1].dataIn == Self.info)
        #expect(conversation.transactions[2].dataIn == Self.storages)
        #expect(conversation.cutTransactions.isEmpty)
        #expect(conversation.deviceInfo?.model == "Imported Cam 7")
        if format == .new {
            #expect(conversation.events.map(\.event.code) == [.objectAdded])
            #expect(conversation.events.first?.event.parameters == [0x1234])
            #expect(conversation.events.first?.afterTransaction == 1)
        }
    }

    @Test func bothFormatsGiveTheSameTransactions() {
        let old = GPhoto2LogImporter.importLog(Self.usbSession(.old).text).conversation
        let new = GPhoto2LogImporter.importLog(Self.usbSession(.new).text).conversation
        #expect(old.transactions.map(\.request) == new.transactions.map(\.request))
        #expect(old.transactions.map(\.dataIn) == new.transactions.map(\.dataIn))
        #expect(old.transactions.map(\.response) == new.transactions.map(\.response))
    }

    /// The dump offset has four digits: a dump past 64 KiB wraps to 0000 and the lines still count.
    @Test func aDumpPast64KiBWrapsItsOffset() {
        var log = Log(format: .new)
        let object = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        log.write(Log.command(.getObject, 4, [0x1001]))
        log.read(Log.data(.getObject, 4, object), asked: 80_000)
        log.read(Log.response(.ok, 4))
        #expect(log.lines.contains { $0.hasPrefix("0000  ") && $0 != log.lines.first { $0.hasPrefix("0000  ") } })
        let result = GPhoto2LogImporter.importLog(log.text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.conversation.transactions.first?.dataIn == object)
    }

    // MARK: What the log does not hold

    @Test func aMissingContinuationReadCutsTheDataPhase() throws {
        var log = Log(format: .new)
        log.write(Log.command(.getDeviceInfo, 1))
        let container = Log.data(.getDeviceInfo, 1, Self.info)
        log.read(Array(container.prefix(512)), asked: 512)
        log.read(Log.response(.ok, 1))
        let result = GPhoto2LogImporter.importLog(log.text)
        let transaction = try #require(result.conversation.transactions.first)
        #expect(transaction.dataIn == Array(Self.info.prefix(500)))
        let cut = try #require(transaction.cut)
        #expect(cut.heldByteCount == 500 && cut.announcedByteCount == Self.info.count)
        #expect(cut.responseInSource && cut.direction == .in)
        #expect(transaction.response.code == .ok)
    }

    @Test func aDumpOfTheFirstBytesIsCut() throws {
        var log = Log(format: .new)
        let object = (0..<3000).map { UInt8(truncatingIfNeeded: $0) }
        log.write(Log.command(.getObject, 7, [0x2B00_0001]))
        log.read(Log.data(.getObject, 7, object), asked: 4096, shown: 256)
        log.read(Log.response(.ok, 7))
        let result = GPhoto2LogImporter.importLog(log.text)
        let transaction = try #require(result.conversation.transactions.first)
        #expect(transaction.dataIn == Array(object.prefix(244)))
        #expect(transaction.cut?.announcedByteCount == 3000)
        #expect(transaction.cut?.reason.contains("first 256") == true)
        #expect(result.diagnostics.contains { $0.kind == .cutDump })
    }

    @Test func aGapAndTheEndOfTheLogCutTheDataPhaseAndOKStandsInForTheResponse() throws {
        var log = Log(format: .new)
        log.write(Log.command(.getDeviceInfo, 1))
        let container = Log.data(.getDeviceInfo, 1, Self.info)
        log.read(Array(container.prefix(512)), asked: 512)
        log.raw("#GAP: the rest of this excerpt was not read")
        let result = GPhoto2LogImporter.importLog(log.text)
        let transaction = try #require(result.conversation.transactions.first)
        #expect(transaction.cut?.responseInSource == false)
        #expect(transaction.cut?.heldByteCount == 500)
        #expect(transaction.response.code == .ok)
    }

    @Test func aRequestWithoutResponseOrDataIsDroppedWithADiagnostic() {
        var log = Log(format: .new)
        log.write(Log.command(.openSession, 0, [1]))
        log.read(Log.response(.ok, 0))
        log.write(Log.command(.getStorageIDs, 1))
        let result = GPhoto2LogImporter.importLog(log.text)
        #expect(result.conversation.transactions.map(\.request.code) == [.openSession])
        #expect(result.diagnostics.contains { $0.kind == .dropped && $0.message.contains("GetStorageIDs") })
    }

    @Test func aLogWithoutDumpsHasNoTransaction() {
        let result = GPhoto2LogImporter.importLog(
            "0.1 gphoto2(2): ALWAYS INCLUDE THE FOLLOWING LINES\n0.2 ptp_usb_getdata (2): Reading PTP_OC 0x1001 data...\n"
        )
        #expect(result.conversation.transactions.isEmpty)
        #expect(result.format == .unknown)
    }

    /// A log is untrusted input: absurd timestamps, sizes and lengths are diagnostics, never a trap.
    @Test func absurdNumbersDoNotTrap() {
        let text = [
            "99999999999999999999.999999999999 gp_port_read (3): Read 5 = 0x5 out of 5 bytes from port: (hexdump of 999999999999999999999 bytes)",
            "0000  ff ff ff ff 02 00 01 10-01 00 00 00 00 00 00 00  ................",
            "1.0 gp_port_read (3): Read 5 = 0x5 out of 5 bytes from port: (hexdump of the first 99 of 3 bytes)",
            "0000  0c 00 00                                         ...",
            "2.0 gp_port_write (3): Wrote 40 = 0x28 bytes to port: (hexdump of 40 bytes)",
            "0000  28 00 00 00 01 00 01 10-01 00 00 00 01 00 00 00  (...............",
            "0010  02 00 00 00 03 00 00 00-04 00 00 00 05 00 00 00  ................",
            "0020  06 00 00 00 07 00 00 00                          ........",
            "3.0 gp_port_check_int (3): Read 8 = 0x8 out of 24 bytes from interrupt endpoint: (hexdump of 8 bytes)",
            "0000  ff ff 00 00 04 00 02 40                          .......@",
        ].joined(separator: "\n")
        let result = GPhoto2LogImporter.importLog(text)
        // The first dump's header is unreadable, so its lines read as a dump without header (libgphoto2 2.4's
        // layout): a GetDeviceInfo container announcing 0xFFFFFFFF bytes, kept as the 4 bytes it holds, marked.
        #expect(result.conversation.transactions.map(\.request.code) == [.getDeviceInfo])
        #expect(result.conversation.transactions.allSatisfy { $0.cut?.responseInSource == false })
        #expect(result.diagnostics.count >= 3)
    }

    // MARK: Damaged lines

    /// Each kind of damage: reported with its line number, never repaired; the transaction becomes cut.
    @Test(arguments: [
        ("0010  01 02 03 04 05 06 07 08-09 0a 0b 0c 0d 0e 0f     ...............", "bytes where"),
        ("0010  01 02 03 04 05 06 07 08-09 0a 0b 0c 0d 0e 0f zz  ................", "hex"),
        ("0010  01 02 03 04 05 06 07 08-09 0a 0b 0c 0d 0e 0f 10  ...wrong column.", "ASCII"),
        ("0020  01 02 03 04 05 06 07 08-09 0a 0b 0c 0d 0e 0f 10  ................", "offset"),
    ])
    func aDamagedDumpLineIsReportedNotGuessed(line: String, reason: String) throws {
        var log = Log(format: .new)
        log.write(Log.command(.getDeviceInfo, 1))
        log.read(Log.data(.getDeviceInfo, 1, Self.info), asked: 1024)
        log.read(Log.response(.ok, 1))
        // The data dump starts at line 4 (request header, dump, blank line, read announcement, read header).
        let index = try #require(
            log.lines.firstIndex { $0.hasPrefix("0010  ") && $0.contains("-") && log.lines.firstIndex(of: $0)! > 3 })
        var lines = log.lines
        lines[index] = line
        let result = GPhoto2LogImporter.importLog(lines.joined(separator: "\n"))
        let damaged = result.diagnostics.filter { $0.kind == .damagedLine }
        #expect(damaged.map(\.line) == [index + 1])
        #expect(damaged.first?.message.contains(reason) == true, "\(damaged)")
        #expect(result.damagedLineCount == 1)
        let transaction = try #require(result.conversation.transactions.first)
        #expect(transaction.dataIn == Array(Self.info.prefix(4)))
        #expect(transaction.cut?.reason.contains("line \(index + 1)") == true)
    }

    @Test func aWrappedLineIsDamaged() throws {
        var log = Log(format: .new)
        log.write(Log.command(.getDeviceInfo, 1))
        log.read(Log.data(.getDeviceInfo, 1, Self.info), asked: 1024)
        log.read(Log.response(.ok, 1))
        var lines = log.lines
        let index = try #require(lines.indices.last { lines[$0].hasPrefix("0030  ") })
        let full = lines[index]
        lines[index] = String(full.prefix(30))
        lines.insert(String(full.dropFirst(30)).drop { $0 == " " }.description, at: index + 1)
        let result = GPhoto2LogImporter.importLog(lines.joined(separator: "\n"))
        #expect(result.diagnostics.filter { $0.kind == .damagedLine }.map(\.line) == [index + 1])
        #expect(result.conversation.transactions.first?.cut != nil)
    }

    // MARK: Pasted logs

    /// CRLF, leading blanks, runs of spaces squeezed to one, `>` quoting, Markdown fences, comments between lines.
    @Test func aPastedLogImportsLikeTheOriginal() {
        let original = Self.usbSession(.new)
        var pasted = ["Here is my log, sorry for the length:", "```"]
        for (number, line) in original.lines.enumerated() {
            var text = line
            while text.contains("  ") { text = text.replacingOccurrences("  ", " ") }
            if number % 3 == 0 { text = "  " + text }
            if number % 5 == 0 { text = "> " + text }
            pasted.append(text)
            if number == 10 { pasted.append("(I pressed the shutter here)") }
        }
        pasted.append("```")
        let text = pasted.joined(separator: "\r\n")
        let result = GPhoto2LogImporter.importLog(text)
        let expected = GPhoto2LogImporter.importLog(original.text).conversation
        #expect(result.damagedLineCount == 0, "\(result.diagnostics)")
        #expect(result.conversation.transactions == expected.transactions)
        #expect(result.conversation.events.map(\.event) == expected.events.map(\.event))
    }

    // MARK: PTP/IP

    static func ptpipSession() -> Log {
        var log = Log(format: .new)
        log.ptpipSend(
            PTPIPPacket.operationRequest(dataPhase: .noneOrIn, code: .openSession, transactionID: 0, parameters: [1])
                .ptpipEncoded)
        log.ptpipReceive(PTPIPPacket.operationResponse(code: .ok, transactionID: 0, parameters: []).ptpipEncoded)
        log.ptpipSend(
            PTPIPPacket.operationRequest(dataPhase: .noneOrIn, code: .getDeviceInfo, transactionID: 1, parameters: [])
                .ptpipEncoded)
        log.ptpipReceive(PTPIPPacket.startData(transactionID: 1, totalLength: UInt64(info.count)).ptpipEncoded)
        log.ptpipReceive(PTPIPPacket.endData(transactionID: 1, payload: info).ptpipEncoded)
        log.ptpipReceive(PTPIPPacket.operationResponse(code: .ok, transactionID: 1, parameters: []).ptpipEncoded)
        log.ptpipReceive(
            PTPIPPacket.event(code: .objectAdded, transactionID: 0xFFFF_FFFF, parameters: [7]).ptpipEncoded)
        return log
    }

    @Test func aPTPIPSessionImports() throws {
        let result = GPhoto2LogImporter.importLog(Self.ptpipSession().text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let conversation = result.conversation
        #expect(conversation.transport == .ptpip)
        #expect(conversation.transactions.map(\.request.code) == [.openSession, .getDeviceInfo])
        #expect(conversation.transactions[1].dataIn == Self.info)
        #expect(conversation.events.map(\.event.code) == [.objectAdded])
        #expect(conversation.deviceInfo?.model == "Imported Cam 7")
    }

    @Test func aCutPTPIPDataPacketKeepsTheAnnouncedTotal() throws {
        var log = Log(format: .new)
        log.ptpipSend(
            PTPIPPacket.operationRequest(dataPhase: .noneOrIn, code: .getDeviceInfo, transactionID: 1, parameters: [])
                .ptpipEncoded)
        log.ptpipReceive(PTPIPPacket.startData(transactionID: 1, totalLength: UInt64(Self.info.count)).ptpipEncoded)
        var lines = log.lines
        var end = Log(format: .new)
        end.ptpipReceive(PTPIPPacket.endData(transactionID: 1, payload: Self.info).ptpipEncoded)
        // The payload dump stops after its third line (the author cut the paste).
        let payloadHeader = try #require(end.lines.firstIndex { $0.contains("generic_read data") })
        lines += end.lines.prefix(payloadHeader + 4)
        lines.append("0.9 ptp_ptpip_getresp (2): ... (log cut by the author)")
        let result = GPhoto2LogImporter.importLog(lines.joined(separator: "\n"))
        let transaction = try #require(result.conversation.transactions.first)
        // 48 bytes dumped: the transaction ID, then 44 bytes of the DeviceInfo.
        #expect(transaction.dataIn == Array(Self.info.prefix(44)))
        #expect(transaction.cut?.announcedByteCount == Self.info.count)
        #expect(transaction.cut?.responseInSource == false)
    }

    // MARK: The recording

    @Test(arguments: [false, true]) func theRecordingRoundTripsThroughPcapng(ptpip: Bool) throws {
        var log = ptpip ? Self.ptpipSession() : Self.usbSession(.new)
        // Add a cut GetObject.
        if ptpip {
            log.ptpipSend(
                PTPIPPacket.operationRequest(dataPhase: .noneOrIn, code: .getObject, transactionID: 2, parameters: [9])
                    .ptpipEncoded)
            log.ptpipReceive(PTPIPPacket.startData(transactionID: 2, totalLength: 4096).ptpipEncoded)
            log.ptpipReceive(
                PTPIPPacket.data(transactionID: 2, payload: [UInt8](repeating: 0xAB, count: 1000)).ptpipEncoded)
            log.ptpipReceive(PTPIPPacket.operationResponse(code: .ok, transactionID: 2, parameters: []).ptpipEncoded)
        } else {
            log.write(Log.command(.getObject, 3, [9]))
            log.read(Array(Log.data(.getObject, 3, [UInt8](repeating: 0xAB, count: 4096)).prefix(512)), asked: 512)
            log.read(Log.response(.ok, 3))
        }
        let imported = GPhoto2LogImporter.importLog(log.text).conversation
        #expect(imported.cutTransactions.count == 1)
        let bytes = imported.pcapngEncoded(application: "rawcap tests", comments: ["source: a test"])
        let reread = try PTPConversation(capture: MemoryCaptureSource(bytes))
        #expect(reread.transport == imported.transport)
        #expect(reread.transactions.map(\.request) == imported.transactions.map(\.request))
        #expect(reread.transactions.map(\.dataIn) == imported.transactions.map(\.dataIn))
        #expect(reread.transactions.map(\.response) == imported.transactions.map(\.response))
        #expect(reread.transactions.map(\.cut) == imported.transactions.map(\.cut))
        #expect(reread.events.map(\.event) == imported.events.map(\.event))
        #expect(reread.events.map(\.afterTransaction) == imported.events.map(\.afterTransaction))
        #expect(reread.notes.isEmpty, "\(reread.notes)")
        var reader = try CaptureFileReader(source: MemoryCaptureSource(bytes))
        _ = try reader.next()
        #expect(reader.sectionComments.contains("camera: Imported Cam 7"))
        #expect(reader.sectionComments.contains("source: a test"))
    }

    /// The import replays leniently through the production session code; the cut GetObject is answered with the
    /// bytes the log holds, and the responder says so.
    @Test func theImportReplaysThroughASession() async throws {
        var log = Self.usbSession(.new)
        log.write(Log.command(.getObject, 3, [9]))
        log.read(Array(Log.data(.getObject, 3, [UInt8](repeating: 0xAB, count: 4096)).prefix(512)), asked: 512)
        log.read(Log.response(.ok, 3))
        let imported = GPhoto2LogImporter.importLog(log.text).conversation
        let conversation = try PTPConversation(
            capture: MemoryCaptureSource(imported.pcapngEncoded(application: "rawcap tests")))
        let camera = ReplayCamera(conversation: conversation, mode: .lenient)
        let session = PTPSession(transport: camera.transport(), configuration: .init(timeout: .seconds(60)))
        try await session.openSession()
        let info = try await session.getDeviceInfo()
        #expect(info.model == "Imported Cam 7")
        #expect(try await session.getStorageIDs().map(\.rawValue) == [0x0001_0001, 0x0001_0002])
        #expect(await camera.responder.answeredWithCutData == 0)
        let sink = PTPMemorySink(limit: 1 << 20)
        _ = try await session.getObject(ObjectHandle(rawValue: 9), into: sink)
        #expect(await sink.bytes.count == 500)
        #expect(await camera.responder.answeredWithCutData == 1)
        #expect(await camera.responder.answeredWithFallback == 0)
        await camera.stop()
    }
}

extension String {
    /// Every `target` replaced (FoundationEssentials-free for this test).
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
