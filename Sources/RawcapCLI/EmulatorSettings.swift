import ArgumentParser
import CameraEmulator
import Logging

/// What the command line says about the emulated camera, whichever options said it: `rawcap sim serve` and
/// `rawcap sim usb` (``EmulatorOptions``), or `--camera sim` (``SimCameraOptions``).
struct EmulatorSettings {
    var model = "generic"
    var sensor: String?
    var faults: [String] = []
    var cardCapacity: String?
    var seed: UInt64 = 0
    var eventOrder: CaptureEventOrder = .standard
    /// The serial number, or `nil` for the model's.
    var serial: String?
    /// Time between presses of the body's shutter button (`--press-every`), or `nil` for none.
    var pressEvery: Duration?
    /// The image quality the body starts with (`--quality`: raw, raw+jpeg, jpeg), or `nil` for the model's.
    var quality: String?

    /// Builds the camera.
    ///
    /// - Throws: `ValidationError` naming the option that does not work.
    func makeCamera() throws -> EmulatedCamera {
        var model: CameraModel
        let faults: [EmulatorFault]
        do {
            model = try CameraModel.named(self.model)
            faults = try EmulatorFault.parse(self.faults)
        } catch {
            throw ValidationError(error.detail)
        }
        if let serial {
            guard !serial.isEmpty, serial.utf8.count <= 64, serial.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) else {
                throw ValidationError("serial \(serial): expected 1 to 64 printable ASCII characters without spaces")
            }
            model.serialNumber = serial
        }
        if let quality {
            let qualities: [String: ImageQuality] = ["raw": .raw, "raw+jpeg": .rawPlusJPEG, "jpeg": .jpeg]
            guard let chosen = qualities[quality.lowercased()] else {
                throw ValidationError("quality \(quality): expected raw, raw+jpeg or jpeg")
            }
            model.defaultQuality = chosen
        }
        var configuration = EmulatedCamera.Configuration(faults: faults, seed: seed, eventOrder: eventOrder)
        if let sensor {
            guard let (width, height) = Self.size(sensor) else {
                throw ValidationError("sensor \(sensor): expected WIDTHxHEIGHT, such as 6000x4000")
            }
            (configuration.sensorWidth, configuration.sensorHeight) = (width, height)
        }
        if let cardCapacity {
            guard let bytes = Self.byteCount(cardCapacity), bytes > 0 else {
                throw ValidationError("card capacity \(cardCapacity): expected a size such as 2GB, 512MiB or 100000000")
            }
            configuration.cardCapacity = bytes
        }
        do {
            return try EmulatedCamera(model: model, configuration: configuration)
        } catch {
            throw ValidationError(error.detail)
        }
    }

    /// Starts pressing `camera`'s shutter button when `pressEvery` is set (``ShutterPresses``).
    func startPresses(_ camera: EmulatedCamera, logger: Logger) {
        if let pressEvery { ShutterPresses.start(camera, every: pressEvery, logger: logger) }
    }

    /// `6000x4000` (or `6000×4000`).
    static func size(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        return (width, height)
    }

    /// `2GB`, `512MiB`, `1500kB`, `100000000`: decimal and binary multiples of bytes.
    static func byteCount(_ text: String) -> UInt64? {
        var number = text.lowercased()
        if number.hasSuffix("b") { number.removeLast() }
        let multipliers: [(String, Double)] = [
            ("ki", 1024), ("mi", 1_048_576), ("gi", 1_073_741_824), ("ti", 1_099_511_627_776), ("k", 1e3),
            ("m", 1e6), ("g", 1e9), ("t", 1e12),
        ]
        var multiplier = 1.0
        for (suffix, factor) in multipliers where number.hasSuffix(suffix) {
            number.removeLast(suffix.count)
            multiplier = factor
            break
        }
        guard let value = Double(number), value.isFinite, value > 0, value * multiplier < 1e18 else { return nil }
        return UInt64((value * multiplier).rounded())
    }
}

extension CaptureEventOrder: ExpressibleByArgument {}
