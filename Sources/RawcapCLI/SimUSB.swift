import ArgumentParser
import CameraEmulator
import Dispatch
import FakeUSB
import FoundationEssentials
import Logging

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand.Sim {
    /// `rawcap sim usb [--fault …] -- COMMAND...`: runs a libusb program with the emulated camera plugged in.
    struct USB: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "usb",
            abstract: "Run a program that sees the emulated camera as a USB device.",
            discussion: """
                The camera appears on a fake USB bus (umockdev) that only COMMAND sees, with the still-image \
                interface real cameras have, so any libusb program finds it: `rawcap sim usb -- rawcap info \
                --camera usb`, `rawcap sim usb -- gphoto2 --auto-detect`. Needs the umockdev package (loaded when \
                this command runs). Exits with COMMAND's status.
                """)

        @OptionGroup var emulator: EmulatorOptions

        @Argument(parsing: .postTerminator, help: ArgumentHelp("The program and its arguments, after --."))
        var command: [String] = []

        func validate() throws {
            guard !command.isEmpty else { throw ValidationError("Give the program to run after --.") }
        }

        func run() async throws {
            let camera = try emulator.settings.makeCamera()
            let model = camera.model
            let status: Int32
            do {
                status = try await FakeUSBTestbed.withTestbed { testbed in
                    let configuration = FakeUSBCamera.Configuration(
                        vendorID: model.usbVendorID ?? 0x1209, productID: model.usbProductID ?? 0x0001,
                        manufacturer: model.manufacturer,
                        product: model.model, serialNumber: model.serialNumber)
                    let device = try testbed.addCamera(configuration, responder: camera)
                    device.start()
                    let presence = Task { await Self.followPresence(of: camera, on: testbed, first: device) }
                    defer { presence.cancel() }
                    emulator.settings.startPresses(camera, logger: Self.logger)
                    return try await ForegroundChild.run(command, environment: testbed.childEnvironment)
                }
            } catch let error as FakeUSBError {
                StandardError.print("rawcap sim usb: \(Self.message(for: error))")
                // EX_UNAVAILABLE: umockdev or the program is missing; anything else failed setting up the bus.
                throw error.code == .umockdevMissing || error.code == .childFailed ? ExitCode(69) : ExitCode(74)
            }
            throw ExitCode(status)
        }

        /// Keeps the fake bus in step with the camera's presence (`sleep-after=`, `disappear-after=`, the `every=`
        /// schedule's power cycle and sleep): the device leaves the bus while the camera is away and a new one with
        /// the same serial number is plugged in at the next address when it is back, as a real bus numbers a
        /// camera that was switched off and on.
        static func followPresence(of camera: EmulatedCamera, on testbed: FakeUSBTestbed, first: FakeUSBCamera) async {
            var plugged: FakeUSBCamera? = first
            var configuration = first.configuration
            while !Task.isCancelled {
                let presence = await camera.linkPresence()
                switch (presence, plugged) {
                case (.gone, let device?):
                    await device.removeFromBus()
                    plugged = nil
                case (.present, nil):
                    configuration.deviceAddress = configuration.deviceAddress >= 127 ? 2 : configuration.deviceAddress + 1
                    configuration.port = configuration.deviceAddress
                    if let device = try? testbed.addCamera(configuration, responder: camera) {
                        device.start()
                        plugged = device
                    }
                default:
                    break
                }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        /// Where a refused shutter press is reported.
        static let logger = Logger(label: "rawcap.sim.usb") { StreamLogHandler.standardError(label: $0) }

        /// One line for the user: what is missing and how to get it.
        static func message(for error: FakeUSBError) -> String {
            switch error.code {
            case .umockdevMissing:
                "the fake USB bus needs umockdev (sudo apt-get install umockdev; make deps installs it): \(error)"
            case .childFailed:
                "cannot run the program: \(error.detail)"
            default:
                "cannot set up the fake USB bus: \(error)"
            }
        }
    }
}
