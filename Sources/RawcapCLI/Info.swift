import ArgumentParser
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand {
    /// `rawcap info [--camera …] [--json]`: what a camera is and what it can do.
    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a camera's identity, storage, operations, events, properties and formats.",
            discussion: """
                Asks the camera for its DeviceInfo, opens a PTP session, reads each store and the description of \
                every property it lists (current value, factory default, allowed values; properties the camera \
                refuses are marked and skipped), and closes the session. Nothing on the camera changes.
                Exit status: 0; 64 when several cameras are connected and --camera does not choose one; 69 when \
                no camera is found; 74 when the camera disconnects or stops answering; 75 when another program \
                holds it; 76 when it breaks PTP; 77 when the user may not open it (see the udev rule in README); \
                130 when interrupted (Ctrl-C).
                """)

        @OptionGroup var connection: ConnectionOptions

        @Flag(help: "Print the report as JSON (stable keys, sorted).")
        var json = false

        func run() async throws {
            let report: CameraInfoReport
            // Parsed options are never mutated; argument-parser's wrappers just do not declare Sendable.
            nonisolated(unsafe) let connection = connection
            do {
                report = try await Interruption.run {
                    let camera = try await CameraConnector.connect(connection)
                    do {
                        let report = try await CameraInfoReport.gather(session: camera.session, link: camera.link)
                        await camera.close()
                        return report
                    } catch {
                        // In a task of its own, so that the camera is released after Ctrl-C too.
                        await Task { await camera.close() }.value
                        throw error
                    }
                }
            } catch {
                throw CommandFailure.report(error, command: "info", json: json)
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.text(verbose: connection.logging.verbose > 0))
            }
        }
    }
}
