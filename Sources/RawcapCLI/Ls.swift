import ArgumentParser
import Capture
import FoundationEssentials
import PTP
import PlatformSupport

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
                let (objects, serial, vendor) = try await Interruption.run {
                    () async throws -> ([CardObject], String, VendorExtensionID) in
                    let camera = try await CameraConnector.connect(connection)
                    do {
                        try await camera.open()
                        let info = try await camera.session.deviceInfo()
                        let objects = try await Self.list(camera.session)
                        try? await camera.session.endSession()
                        await camera.close()
                        return (objects, info.serialNumber, info.cameraVendor)
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
                let rows = objects.map { object in
                    Row(
                        handle: object.handle.rawValue, cameraFile: object.info.filename,
                        objectFormat: object.info.objectFormat.rawValue,
                        objectFormatName: object.info.objectFormat.description(vendor: vendor), size: object.info.byteCount,
                        captureDate: object.info.captureDate, pulled: pulled.contains(object.key))
                }
                if json {
                    for row in rows { print(String(decoding: try encoder.encode(row), as: UTF8.self)) }
                } else {
                    print(Self.table(rows))
                    let count = rows.count
                    let marked = rows.filter(\.pulled).count
                    StandardError.print(
                        count == 0
                            ? "rawcap ls: no files on the camera"
                            : "rawcap ls: \(count) file\(count == 1 ? "" : "s") on the camera"
                                + (marked > 0 ? ", \(marked) already pulled into \(output)" : ""))
                }
            } catch {
                throw ShootFailure.report(error, command: "ls", json: json)
            }
        }

        /// The listing for people: a header, then one line per file (handle, camera file name with control characters
        /// shown as `?`, format, size in MB, the date the camera gives as `2026-11-29 09:12:13`, `pulled`). Empty
        /// when the card is.
        static func table(_ rows: [Row]) -> String {
            guard !rows.isEmpty else { return "" }
            let lines = rows.map { row -> [String] in
                let name = String(
                    row.cameraFile.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
                return [
                    String(row.handle), name, row.objectFormatName,
                    row.size.map { String(cFormat: "%.1f MB", Double($0) / 1e6) } ?? "—", readableDate(row.captureDate),
                    row.pulled ? "pulled" : "",
                ]
            }
            let header = ["HANDLE", "NAME", "FORMAT", "SIZE", "TAKEN", ""]
            let widths = (0..<header.count).map { column in
                ([header] + lines).map { $0[column].count }.max() ?? 0
            }
            return ([header] + lines).map { cells in
                cells.enumerated().map { column, cell in
                    // Sizes right-aligned; the last column is not padded.
                    column == 3 ? cell.padding(widths[column], left: true)
                        : column == cells.count - 1 ? cell : cell.padding(widths[column])
                }.joined(separator: "  ").trimmingTrailingSpaces
            }.joined(separator: "\n")
        }

        /// A PTP date-time (`20261129T091213`, maybe with tenths and a zone) as `2026-11-29 09:12:13`; anything else
        /// as it is (escaped), `—` when empty.
        static func readableDate(_ text: String) -> String {
            guard !text.isEmpty else { return "—" }
            let characters = Array(text)
            guard characters.count >= 15, characters[8] == "T",
                characters[0..<8].allSatisfy(\.isNumber), characters[9..<15].allSatisfy(\.isNumber)
            else {
                return String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
            }
            let digits = String(characters[0..<8]) + String(characters[9..<15])
            func part(_ from: Int, _ length: Int) -> String {
                let start = digits.index(digits.startIndex, offsetBy: from)
                return String(digits[start..<digits.index(start, offsetBy: length)])
            }
            return "\(part(0, 4))-\(part(4, 2))-\(part(6, 2)) \(part(8, 2)):\(part(10, 2)):\(part(12, 2))"
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
    /// The text without trailing spaces.
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The text padded with spaces to `width` (on the left for numbers).
    fileprivate func padding(_ width: Int, left: Bool = false) -> String {
        let pad = String(repeating: " ", count: max(0, width - count))
        return left ? pad + self : self + pad
    }
}
