import CameraControl
import Capture
import Logging
import PTP
import PTPRecord
import WireFormat

/// How far rawcap's production code gets through each real camera's recorded session: the conformance table of
/// `make real-cameras` (`rawcap replay check`), `docs/real-cameras.md`.
///
/// Each recording is replayed leniently in memory (``PTPRecord/ReplayCamera``) through the code `rawcap` runs:
/// `PTPSession`, `CameraSettings`, and the driver `CameraProfile.select(for:usbVendorID:usbProductID:logger:)`
/// picks (`prepare`, `capture`, `finish`). Stages:
///
/// | stage | the source holds it when it has | passes when |
/// |---|---|---|
/// | connect | OpenSession | the session opens |
/// | info | GetDeviceInfo | DeviceInfo decodes (with the storages when the source has GetStorageIDs) |
/// | config list | a descriptor rawcap asks for | every descriptor the source answered decodes |
/// | set | SetDevicePropValue (or Sony's SetControlDeviceA) | rawcap sets the recorded value of that property |
/// | capture | a capture operation (InitiateCapture, Nikon, Canon EOS, Sony, Panasonic) | the driver announces an object |
/// | download | GetObject of an announced object | the object arrives whole |
///
/// An outcome is `pass`, `FAIL` (the source holds the stage and rawcap does not get through it), `cut in source`
/// (the source holds the stage's data only in part: ``PTPRecord/PTPConversation/DataPhaseCut``) or `—` (the source
/// does not hold the stage). A camera's refusal that the source recorded is a pass with the refusal noted: rawcap met
/// what the camera did.
public enum RealCameraConformance {
    /// The stages, in order.
    public enum Stage: String, CaseIterable, Sendable {
        case connect
        case info
        case vendorData = "vendor data"
        case configList = "config list"
        case set
        case capture
        case download
    }

    /// One stage's outcome.
    public enum Outcome: Hashable, Sendable, CustomStringConvertible {
        case pass(String)
        case fail(String)
        case cut(String)
        case absent

        /// How good the outcome is: a fall in rank is a regression.
        public var rank: Int {
            switch self {
            case .fail: 0
            case .absent: 1
            case .cut: 2
            case .pass: 3
            }
        }

        /// The table cell.
        public var description: String {
            switch self {
            case .pass(let detail): detail.isEmpty ? "pass" : "pass: \(detail)"
            case .fail(let detail): "FAIL: \(detail)"
            case .cut(let detail): detail.isEmpty ? "cut in source" : "cut in source: \(detail)"
            case .absent: "—"
            }
        }

        /// The rank of a table cell written by ``description``.
        static func rank(ofCell cell: String) -> Int {
            if cell.hasPrefix("FAIL") { return 0 }
            if cell.hasPrefix("cut") { return 2 }
            if cell.hasPrefix("pass") { return 3 }
            return 1
        }
    }

    /// One body's row.
    public struct Row: Sendable, Hashable {
        /// The recording's name (its file name without `.pcapng`).
        public var recording: String
        /// The camera, from DeviceInfo or the PTP/IP responder name.
        public var camera: String
        /// The maker, from DeviceInfo.
        public var maker: String
        /// Each stage's outcome.
        public var outcomes: [Stage: Outcome]
        /// What the recording holds: its operations in order of first use, with counts and cut marks.
        public var holds: String = ""

        /// Whether every stage the source holds passes.
        public var allHeldStagesPass: Bool { outcomes.values.allSatisfy { $0.rank != 0 } }
        /// Whether the source holds any stage.
        public var holdsAStage: Bool { outcomes.values.contains { $0 != .absent } }
    }

    // MARK: Running

    /// Checks the recording at `path`.
    public static func check(path: String, recording: String) async -> Row {
        do {
            let conversation = try PTPConversation.load(path: path)
            var row = await check(conversation, recording: recording)
            if row.camera == "?" {
                // A recording whose DeviceInfo the source cut names the camera in its section header.
                var reader = try CaptureFileReader(path: path)
                _ = try reader.next()
                if let named = reader.sectionComments.first(where: {
                    $0.hasPrefix("camera: ") && !$0.contains("(not yet known)")
                }) {
                    row.camera = String(named.dropFirst("camera: ".count)).trimmingSpaces
                    row.maker = maker(row.camera)
                    row.holds = holdings(conversation, vendor: vendor(ofMaker: row.maker))
                }
            }
            return row
        } catch {
            var outcomes = Dictionary(uniqueKeysWithValues: Stage.allCases.map { ($0, Outcome.absent) })
            outcomes[.connect] = .fail("the recording does not load: \(error)")
            return Row(recording: recording, camera: "?", maker: "?", outcomes: outcomes)
        }
    }

    /// Checks `conversation`.
    public static func check(_ conversation: PTPConversation, recording: String) async -> Row {
        let logger = Logger(label: "rawcap.conformance", factory: { _ in SwiftLogNoOpLogHandler() })
        let replay = ReplayCamera(conversation: conversation, mode: .lenient, logger: logger)
        let session = PTPSession(
            transport: replay.transport(logger: logger), configuration: .init(timeout: .seconds(10)), logger: logger)
        var run = Run(conversation: conversation, responder: replay.responder, session: session, logger: logger)
        await run.all()
        await replay.stop()
        let info = run.deviceInfo
        let camera = info?.model ?? conversation.cameraModel ?? "?"
        let maker = info.map { Self.maker($0.manufacturer) } ?? (camera == "?" ? "?" : Self.maker(camera))
        return Row(
            recording: recording, camera: camera, maker: maker, outcomes: run.outcomes,
            holds: holdings(conversation, vendor: info?.cameraVendor ?? vendor(ofMaker: maker)))
    }

    static func vendor(ofMaker maker: String) -> VendorExtensionID? {
        [
            "Nikon": VendorExtensionID.nikon, "Canon": .canon, "Sony": .sony, "Fujifilm": .fujifilm,
            "Panasonic": .panasonic, "Samsung": .samsung, "Pentax": .pentax,
        ][maker]
    }

    /// `OpenSession, GetDeviceInfo (cut), GetEvent ×2`: the operations a recording holds.
    static func holdings(_ conversation: PTPConversation, vendor: VendorExtensionID?) -> String {
        var order: [OperationCode] = []
        var counts: [OperationCode: Int] = [:]
        var cut: Set<OperationCode> = []
        for transaction in conversation.transactions {
            let code = transaction.request.code
            if counts[code] == nil { order.append(code) }
            counts[code, default: 0] += 1
            if let mark = transaction.cut, !mark.onlyTheResponseIsMissing { cut.insert(code) }
        }
        var items = order.map { code -> String in
            var text = code.description(vendor: vendor)
            if let count = counts[code], count > 1 { text += " ×\(count)" }
            if cut.contains(code) { text += " (cut)" }
            return text
        }
        if !conversation.events.isEmpty {
            items.append("\(conversation.events.count) event\(conversation.events.count == 1 ? "" : "s")")
        }
        if items.count > 8 { items = Array(items.prefix(8)) + ["…"] }
        return items.joined(separator: ", ")
    }

    /// A short maker name from DeviceInfo's manufacturer (`Nikon Corporation` → `Nikon`).
    static func maker(_ manufacturer: String) -> String {
        let lower = manufacturer.lowercased()
        for (needle, name) in [
            ("nikon", "Nikon"), ("canon", "Canon"), ("sony", "Sony"), ("fuji", "Fujifilm"), ("olympus", "Olympus"),
            ("om digital", "OM System"), ("panasonic", "Panasonic"), ("pentax", "Pentax"), ("ricoh", "Ricoh"),
            ("samsung", "Samsung"), ("leica", "Leica"), ("sigma", "Sigma"), ("gopro", "GoPro"), ("kodak", "Kodak"),
        ] where lower.contains(needle) {
            return name
        }
        return manufacturer.isEmpty ? "?" : manufacturer
    }

    /// The operations that trigger a shot, in any family rawcap drives.
    static let captureOperations: Set<UInt16> = [
        0x100E,  // InitiateCapture
        0x101C,  // InitiateOpenCapture
        0x90C0,  // Nikon InitiateCaptureRecInSdram
        0x9207,  // Nikon InitiateCaptureRecInMedia, Sony SetControlDeviceB (the shutter)
        0x910F,  // Canon EOS RemoteRelease
        0x9128,  // Canon EOS RemoteReleaseOn
        0x9404,  // Panasonic capture
    ]

    private struct Counters {
        var recorded = 0
        var fallback = 0
        var cut = 0
    }

    /// One replay's state through the stages.
    private struct Run {
        let conversation: PTPConversation
        let responder: ReplayResponder
        let session: PTPSession
        let logger: Logger
        var outcomes: [Stage: Outcome] = [:]
        var deviceInfo: DeviceInfo?
        var objects: [AnnouncedObject] = []

        init(conversation: PTPConversation, responder: ReplayResponder, session: PTPSession, logger: Logger) {
            self.conversation = conversation
            self.responder = responder
            self.session = session
            self.logger = logger
            for stage in Stage.allCases { outcomes[stage] = .absent }
        }

        func holds(_ code: OperationCode) -> Bool { conversation.transactions.contains { $0.request.code == code } }

        func counters() async -> Counters {
            Counters(
                recorded: await responder.answeredFromRecording, fallback: await responder.answeredWithFallback,
                cut: await responder.answeredWithCutData)
        }

        /// What an error means, given what the responder did meanwhile.
        func classify(_ error: any Error, since before: Counters, what: String) async -> Outcome {
            let now = await counters()
            if now.cut > before.cut {
                let indices = await responder.cutTransactionsAnswered
                if let last = indices.last, let cut = conversation.transactions[last].cut {
                    return .cut(
                        "\(conversation.transactions[last].request.code): \(cut.heldByteCount) of \(cut.announcedByteCount.map(String.init) ?? "?") bytes"
                    )
                }
                return .cut("")
            }
            if now.fallback > before.fallback, now.recorded == before.recorded { return .absent }
            return .fail("\(what): \(Self.oneLine(error))")
        }

        static func oneLine(_ error: any Error) -> String {
            let text = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
            let short = text.count > 160 ? String(text.prefix(157)) + "…" : text
            return short.replacingPipes
        }

        mutating func all() async {
            await connect()
            let hasInfo = await info()
            await vendorData()
            guard hasInfo, let deviceInfo else { return }
            let settings = CameraSettings(session: session, deviceInfo: deviceInfo, logger: logger)
            await configList(settings)
            await set(settings)
            await capture()
            await download()
        }

        mutating func connect() async {
            do {
                try await session.openSession()
                if holds(.openSession) { outcomes[.connect] = .pass("") }
            } catch {
                if holds(.openSession) { outcomes[.connect] = .fail(Self.oneLine(error)) }
            }
        }

        mutating func info() async -> Bool {
            guard holds(.getDeviceInfo) else { return false }
            let before = await counters()
            let info: DeviceInfo
            do {
                info = try await session.getDeviceInfo()
            } catch {
                outcomes[.info] = await classify(error, since: before, what: "GetDeviceInfo")
                return false
            }
            deviceInfo = info
            var detail = info.model
            if holds(.getStorageIDs) {
                let before = await counters()
                do {
                    let storages = try await session.getStorageIDs()
                    detail += "; \(storages.count) storage\(storages.count == 1 ? "" : "s")"
                } catch let error as PTPError where error.code == .deviceResponse {
                    let now = await counters()
                    if now.fallback == before.fallback {
                        detail += "; storages refused (\(error.response?.description ?? "error"))"
                    }
                } catch {
                    outcomes[.info] = await classify(error, since: before, what: "GetStorageIDs")
                    return true
                }
            }
            outcomes[.info] = .pass(detail)
            return true
        }

        /// The vendor data phases rawcap's drivers read, each recorded answer decoded with the production parser:
        /// Canon EOS and Nikon GetEvent records, Nikon GetVendorPropCodes, Sony GetSDIOExtDeviceInfo and
        /// GetAllDevicePropData. Answers the source cut count as cut; one that does not decode is a failure.
        mutating func vendorData() async {
            typealias Decoder = @Sendable ([UInt8]) throws -> String
            let decoders: [OperationCode: Decoder] = [
                OperationCode.Canon.getEvent: { "\(try CanonEOSEventList(ptpEncoded: $0).events.count) EOS events" },
                OperationCode.Nikon.getEvent: { "\(try NikonEventList(ptpEncoded: $0).events.count) Nikon events" },
                OperationCode.Nikon.getVendorPropCodes: { bytes in
                    var reader = WireReader(bytes, byteOrder: .little)
                    let codes = try reader.readArray(of: UInt16.self)
                    guard reader.isAtEnd else { throw WireError(.trailingBytes, "after the property codes") }
                    return "\(codes.count) vendor properties"
                },
                OperationCode.Sony.getSDIOExtDeviceInfo: {
                    "\(try SonyExtDeviceInfo(ptpEncoded: $0).properties.count) Sony properties listed"
                },
                OperationCode.Sony.getAllDevicePropData: {
                    "\(try SonyAllDevicePropData(ptpEncoded: $0).descriptions.count) Sony properties described"
                },
            ]
            var decoded: [String] = []
            var cut = 0
            var failed: [String] = []
            for transaction in conversation.transactions {
                guard let decode = decoders[transaction.request.code], transaction.response.code == .ok else { continue }
                guard transaction.cut == nil else {
                    cut += 1
                    continue
                }
                do {
                    // Asked through the session as a driver asks it, so the replay's answer is what is decoded.
                    let result = try await session.execute(
                        transaction.request.code, parameters: transaction.request.parameters, dataOut: nil,
                        expectDataIn: true)
                    decoded.append(try decode(result.data ?? []))
                } catch {
                    failed.append("\(transaction.request.code): \(Self.oneLine(error))")
                }
            }
            if let first = failed.first {
                outcomes[.vendorData] = .fail(first + (failed.count > 1 ? " (and \(failed.count - 1) more)" : ""))
            } else if !decoded.isEmpty {
                outcomes[.vendorData] = .pass(decoded.joined(separator: ", ") + (cut > 0 ? "; \(cut) cut in source" : ""))
            } else if cut > 0 {
                outcomes[.vendorData] = .cut("\(cut) data phase\(cut == 1 ? "" : "s")")
            }
        }

        mutating func configList(_ settings: CameraSettings) async {
            var read = 0
            var refused = 0
            var cut = 0
            var failed: [String] = []
            for definition in settings.supportedDefinitions {
                let before = await counters()
                do {
                    _ = try await settings.descriptor(definition)
                    let now = await counters()
                    if now.recorded > before.recorded { read += 1 }
                } catch {
                    let now = await counters()
                    if now.cut > before.cut {
                        cut += 1
                    } else if now.fallback > before.fallback && now.recorded == before.recorded {
                        continue
                    } else if error is CameraControlError {
                        refused += 1
                    } else {
                        failed.append(failed.isEmpty ? "\(definition.name) (\(Self.oneLine(error)))" : definition.name)
                    }
                }
            }
            var detail = "\(read) read"
            if refused > 0 { detail += ", \(refused) refused by the camera" }
            if cut > 0 { detail += ", \(cut) cut in source" }
            if !failed.isEmpty {
                outcomes[.configList] = .fail("\(detail); cannot read \(failed.prefix(6).joined(separator: ", "))")
            } else if read > 0 || refused > 0 {
                outcomes[.configList] = .pass(detail)
            } else if cut > 0 {
                outcomes[.configList] = .cut(detail)
            }
        }

        mutating func set(_ settings: CameraSettings) async {
            let setOperations: Set<UInt16> = [0x1016, OperationCode.Sony.setControlDeviceA.rawValue]
            let candidates = conversation.transactions.filter {
                setOperations.contains($0.request.code.rawValue) && $0.response.code == .ok && $0.dataOut != nil
                    && $0.cut == nil && !$0.request.parameters.isEmpty
            }
            guard
                let recorded = candidates.first(where: { transaction in
                    settings.supportedDefinitions.contains {
                        $0.code.rawValue == UInt16(truncatingIfNeeded: transaction.request.parameters[0])
                    }
                }) ?? candidates.first
            else {
                if holds(OperationCode(rawValue: 0x9110)) {
                    outcomes[.set] = .fail(
                        "the source sets through Canon EOS SetDevicePropValueEx (0x9110); rawcap's settings do not")
                }
                return
            }
            let code = DevicePropertyCode(rawValue: UInt16(truncatingIfNeeded: recorded.request.parameters[0]))
            guard let definition = settings.supportedDefinitions.first(where: { $0.code == code }) else {
                outcomes[.set] = .fail("the source sets \(code), which DeviceInfo does not list")
                return
            }
            let before = await counters()
            do {
                let descriptor = try await settings.descriptor(definition)
                let value = try PTPValue(ptpEncoded: recorded.dataOut ?? [], type: descriptor.dataType)
                try await settings.set(definition, to: value)
                outcomes[.set] = .pass("\(definition.name) = \(definition.style.format(value))")
            } catch {
                outcomes[.set] = await classify(error, since: before, what: "set \(definition.name)")
            }
        }

        mutating func capture() async {
            guard
                conversation.transactions.contains(where: {
                    RealCameraConformance.captureOperations.contains($0.request.code.rawValue)
                }), let info = deviceInfo
            else { return }
            let driver = CameraProfile.select(for: info, logger: logger).driver
            let before = await counters()
            do {
                try await driver.prepare(session: session, logger: logger)
                objects = try await driver.capture(
                    session: session, expecting: nil,
                    timing: CaptureTiming(shotTimeout: .milliseconds(500), lateGrace: .milliseconds(200)),
                    announce: { _ in })
                outcomes[.capture] =
                    objects.isEmpty
                    ? .fail("no object announced")
                    : .pass("\(objects.count) object\(objects.count == 1 ? "" : "s")")
            } catch {
                outcomes[.capture] = await classify(error, since: before, what: "capture")
            }
            await driver.finish(session: session, logger: logger)
        }

        mutating func download() async {
            guard !objects.isEmpty else { return }
            var whole = 0
            var bytes = 0
            var cuts: [String] = []
            var notInSource = 0
            for object in objects {
                let recorded = conversation.transactions.first {
                    $0.request.code == .getObject && $0.request.parameters.first == object.handle.rawValue
                }
                if object.data != nil {
                    whole += 1
                    bytes += object.data?.count ?? 0
                    continue
                }
                guard let recorded else {
                    notInSource += 1
                    continue
                }
                let sink = PTPMemorySink(limit: 1 << 30)
                let before = await counters()
                do {
                    _ = try await session.getObject(object.handle, into: sink)
                    let received = await sink.bytes
                    if let cut = recorded.cut {
                        cuts.append("\(received.count) of \(cut.announcedByteCount.map(String.init) ?? "?") bytes")
                    } else {
                        whole += 1
                        bytes += received.count
                    }
                } catch {
                    let outcome = await classify(error, since: before, what: "GetObject")
                    if case .cut(let detail) = outcome {
                        cuts.append(detail)
                    } else {
                        outcomes[.download] = outcome
                        return
                    }
                }
            }
            if whole > 0 {
                outcomes[.download] = .pass("full, \(whole) object\(whole == 1 ? "" : "s"), \(bytes) bytes")
            } else if !cuts.isEmpty {
                outcomes[.download] = .cut(cuts.joined(separator: ", "))
            } else if notInSource > 0 {
                outcomes[.download] = .absent
            }
        }
    }

    // MARK: The table

    /// The Markdown table: one row per recording, in the order given.
    public static func table(_ rows: [Row]) -> String {
        var lines = [
            "| recording | camera | maker | source holds | " + Stage.allCases.map(\.rawValue).joined(separator: " | ")
                + " |",
            "|---|---|---|---|" + Stage.allCases.map { _ in "---|" }.joined(),
        ]
        for row in rows {
            lines.append(
                "| \(row.recording.replacingPipes) | \(row.camera.replacingPipes) | \(row.maker.replacingPipes) | "
                    + "\(row.holds.replacingPipes) | "
                    + Stage.allCases.map { (row.outcomes[$0] ?? .absent).description.replacingPipes }.joined(
                        separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The stages that passed (or were cut in the source) in `committed` (a document holding a ``table(_:)``) and do
    /// worse in `rows`, and the recordings `committed` lists that `rows` lack; one line each.
    public static func regressions(committed: String, rows: [Row]) -> [String] {
        let current = Dictionary(rows.map { ($0.recording, $0) }, uniquingKeysWith: { first, _ in first })
        var found: [String] = []
        for line in committed.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| recording") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map {
                String($0).trimmingSpaces
            }
            guard cells.count == 4 + Stage.allCases.count else { continue }
            let recording = cells[0]
            guard let row = current[recording] else {
                found.append("\(recording): in the committed table, not in the corpus")
                continue
            }
            for (index, stage) in Stage.allCases.enumerated() {
                let old = Outcome.rank(ofCell: cells[4 + index])
                let now = row.outcomes[stage] ?? .absent
                if old >= 2, now.rank < old {
                    found.append("\(recording) \(stage.rawValue): was \(cells[4 + index]), now \(now)")
                }
            }
        }
        return found
    }
}

extension String {
    /// The text with `|` escaped for a Markdown table cell.
    fileprivate var replacingPipes: String {
        var result = ""
        for character in self {
            if character == "|" {
                result += "\\|"
            } else if character.isNewline {
                result += " "
            } else {
                result.append(character)
            }
        }
        return result
    }

    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
