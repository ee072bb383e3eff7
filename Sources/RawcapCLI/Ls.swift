import ArgumentParser
import Capture
import FoundationEssentials
import PTP

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand {
    /// `rawcap ls`: the files on the camera's card.
    struct Ls: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the files on the camera's card (handle, name, format, size, date).",
            discussion: "A file the output folder's journal has a copy of is marked 'pulled'.")

        @OptionGroup var connection: ConnectionOptions

        @Option(
            name: [.short, .long], help: ArgumentHelp("The folder whose journal marks pulled files.", valueName: "dir"))
        var output = "captures"

        @Flag(help: "One JSON object per file.")
        var json = false

        struct Row: Codable {
            var handle: UInt32
            var name: String
            var format: String
            var size: UInt64?
            var date: String
            var pulled: Bool
        }

        func run() async throws {
            do {
                let camera = try await CameraConnector.connect(connection)
                let objects: [CardObject]
                let serial: String
                do {
                    try await camera.open()
                    serial = try await camera.session.deviceInfo().serialNumber
                    objects = try await Self.list(camera.session)
                } catch {
                    try? await camera.session.endSession()
                    await camera.close()
                    throw error
                }
                try? await camera.session.endSession()
                await camera.close()
                let pulled = Puller.pulledKeys(Journal.read(folder: output), serial: serial)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                for object in objects {
                    let row = Row(
                        handle: object.handle.rawValue, name: object.info.filename,
                        format: object.info.objectFormat.description, size: object.info.byteCount,
                        date: object.info.captureDate, pulled: pulled.contains(object.key))
                    if json {
                        print(String(decoding: try encoder.encode(row), as: UTF8.self))
                    } else {
                        // Camera names are shown escaped: a control character must not reach the terminal.
                        let name = String(
                            row.name.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
                        print(
                            "\(String(row.handle).padding(8))  \(name.padding(16))  \(row.format.padding(10))  "
                                + "\(String(row.size ?? 0).padding(10, left: true))  \(row.date)\(row.pulled ? "  pulled" : "")"
                        )
                    }
                }
            } catch {
                throw ShootFailure.report(error, command: "ls")
            }
        }

        static func list(_ session: PTP.PTPSession) async throws -> [CardObject] {
            var objects: [CardObject] = []
            for handle in try await session.getObjectHandles() {
                let info = try await session.getObjectInfo(handle)
                guard info.objectFormat != .association else { continue }
                objects.append(CardObject(handle: handle, info: info))
            }
            return objects
        }
    }
}

extension String {
    /// The text padded with spaces to `width` (on the left for numbers).
    fileprivate func padding(_ width: Int, left: Bool = false) -> String {
        let pad = String(repeating: " ", count: max(0, width - count))
        return left ? pad + self : self + pad
    }
}
