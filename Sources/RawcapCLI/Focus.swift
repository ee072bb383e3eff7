import ArgumentParser
import Capture
import FoundationEssentials
import PTP

extension RawcapCommand {
    /// `rawcap focus near|far|auto`: drives the lens.
    struct Focus: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Drive the lens's focus towards near or far, or run the camera's autofocus once.",
            discussion: """
                near and far move the focus by --steps drives of --size (Canon EOS DriveLens, Nikon MfDrive, Sony \
                ManualFocusAdjust; Canon and Nikon bodies move the lens only in live view, which rawcap starts and \
                ends around the drive). auto runs the camera's autofocus (Canon DoAf, Nikon AfDrive, Sony's half \
                press). docs/live-view.md lists what each size means per maker.
                Exit status: 0; 64 for bad options; 69 when the camera has no focus drive rawcap knows \
                (Fujifilm, standard PTP); 74 when the camera disconnects; 75 when the lens did not focus (auto).
                """)

        enum Action: String, ExpressibleByArgument, CaseIterable {
            case near, far, auto
        }

        @Argument(help: "near, far or auto.")
        var action: Action

        @OptionGroup var connection: ConnectionOptions

        @Option(help: "Drives to send (near, far).")
        var steps = 1

        @Option(help: "Size of each drive: small, medium or large.")
        var size: String = "small"

        @Flag(help: "Print the result as one JSON object.")
        var json = false

        func validate() throws {
            guard steps >= 1, steps <= 1000 else { throw ValidationError("--steps must be 1…1000") }
            guard FocusStepSize(rawValue: size) != nil else {
                throw ValidationError("--size must be small, medium or large")
            }
        }

        struct Report: Encodable {
            var action: String
            var camera: String
            var drives: Int?
            var limit: Bool?
            var focused: Bool?
        }

        func run() async throws {
            nonisolated(unsafe) let connection = connection
            let action = action
            let steps = steps
            let size = FocusStepSize(rawValue: size) ?? .small
            let report: Report
            do {
                report = try await Interruption.run {
                    let camera = try await CameraConnector.connect(connection)
                    do {
                        let identity = try await camera.open()
                        let control: FocusControl
                        do {
                            control = try FocusControl(session: camera.session, identity: identity, logger: connection.logger)
                        } catch let error as LiveViewError {
                            throw CommandFailure(.notAvailable, "no focus drive: \(error.description)")
                        }
                        var report = Report(action: action.rawValue, camera: identity.deviceInfo.model)
                        do {
                            switch action {
                            case .near, .far:
                                let result = try await control.drive(
                                    action == .near ? .near : .far, count: steps, size: size)
                                report.drives = result.drives
                                report.limit = result.reachedLimit
                            case .auto:
                                report.focused = try await control.autofocus()
                            }
                        } catch {
                            await Task { await control.finish() }.value
                            throw error
                        }
                        await control.finish()
                        try? await camera.session.endSession()
                        await camera.close()
                        return report
                    } catch {
                        await Task {
                            try? await camera.session.endSession()
                            await camera.close()
                        }.value
                        throw error
                    }
                }
                if report.focused == false {
                    throw CommandFailure(.busy, "the camera did not focus")
                }
            } catch {
                throw ShootFailure.report(error, command: "focus", json: json)
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else if let drives = report.drives {
                print("focus \(action.rawValue): \(drives) drive\(drives == 1 ? "" : "s")\(report.limit == true ? "; the lens is at its limit" : "")")
            } else {
                print("focus auto: focused")
            }
        }
    }
}
