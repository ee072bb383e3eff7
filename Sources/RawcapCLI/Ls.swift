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

        /// One `--json` line; the keys are the journal's for the same things (docs/json.md).
        struct Row: Codable {
            var handle: UInt32
            /// The object's file name on the camera.
            var cameraFile: String
            /// The PTP object format code, as the journal's `object-announced` has it.
            var objectFormat: UInt16
            /// Its name (`EXIF/JPEG`, `TIFF`, a vendor raw format).
            var objectFormatName: String
            var size: UInt64?
            /// The capture date as the camera gives it.
            var captureDate: String
            var pulled: Bool
        }

        func run() async throws {
            // Parsed options are never mutated; argument-parser's wrappers just do not declare Sendable.
            nonisolated(unsafe) let connection = connection
            do {
                // Ctrl-C or SIGTERM closes the session and ends with 130 or 143 (Interruption).
                let (objects, serial) = try await Interruption.run { () async throws -> ([CardObject], String) in
                    let camera = try await CameraConnector.connect(connection)
                    do {
                        try await camera.open()
                        let serial = try await camera.session.deviceInfo().serialNumber
                        let objects = try await Self.list(camera.session)
                        try? await camera.session.endSession()
                        await camera.close()
                        return (objects, serial)
                    } catch {
                        // In a task of its own, so that the camera is released after Ctrl-C too.
                        await Task {
                            try? await camera.session.endSession()
                            await camera.close()
                        }.value
                        throw error
                    }
                }
                let pulled = Puller.pulledKeys(Journal.read(folder: output), serial: serial)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                for object in objects {
                    let row = Row(
                        handle: object.handle.rawValue, cameraFile: object.info.filename,
                        objectFormat: object.info.objectFormat.rawValue,
                        objectFormatName: object.info.objectFormat.description, size: object.info.byteCount,
                        captureDate: object.info.captureDate, pulled: pulled.contains(object.key))
                    if json {
                        print(String(decoding: try encoder.encode(row), as: UTF8.self))
                    } else {
                        // Camera names are shown escaped: a control character must not reach the terminal.
                        let name = String(
                            row.cameraFile.unicodeScalars.map {
                                $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0)
                            })
                        print(
                            "\(String(row.handle).padding(8))  \(name.padding(16))  \(row.objectFormatName.padding(10))  "
                                + "\(String(row.size ?? 0).padding(10, left: true))  \(row.captureDate)\(row.pulled ? "  pulled" : "")"
                        )
                    }
                }
            } catch {
                throw ShootFailure.report(error, command: "ls", json: json)
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
