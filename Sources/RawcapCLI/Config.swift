import ArgumentParser
import CameraControl
import Capture
import FoundationEssentials
import PTP

#if canImport(Glibc)
    import Glibc
#endif

extension RawcapCommand {
    /// `rawcap config list | get NAME… | set NAME=VALUE…`: camera settings by readable name.
    struct Config: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, read and change camera settings by name (iso=400 shutter=1/125 aperture=f/8).",
            discussion: """
                Names: iso, shutter, aperture, wb, ev, quality, focus, drive, program, metering, flash, bitdepth, \
                target, … (`rawcap config list` shows the ones the camera has); any property code works as a name \
                too (0x5005=2), its values as plain numbers. Values are checked against the camera's own list of \
                allowed values before anything changes.
                Exit status: 0; 64 for an unknown name, a value the camera does not allow or a malformed NAME=VALUE \
                (the message lists the allowed values); 69 no camera; 74 disconnect; 75 busy; 76 the camera refused \
                or broke PTP; 77 permission denied.
                """,
            subcommands: [ConfigList.self, ConfigGet.self, ConfigSet.self], defaultSubcommand: ConfigList.self)
    }

    /// `rawcap config list`.
    struct ConfigList: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Every setting the camera has, its value and the values it allows.")

        @OptionGroup var connection: ConnectionOptions

        @Flag(help: "Print JSON (stable keys).")
        var json = false

        func run() async throws {
            let states = try await ConfigSession.run(connection, command: "config list", json: json) { settings in
                try await settings.list()
            }
            if json {
                ConfigSession.printJSON(states)
            } else {
                print(ConfigSession.table(states))
            }
        }
    }

    /// `rawcap config get NAME…`.
    struct ConfigGet: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Print settings as NAME=VALUE lines (which `config set` takes back).")

        @OptionGroup var connection: ConnectionOptions

        @Flag(help: "Print JSON (stable keys).")
        var json = false

        @Argument(
            help: ArgumentHelp("Setting names or property codes (iso, shutter, 0x5005).", valueName: "name"),
            completion: .list(ConfigSession.settingNames))
        var names: [String]

        func validate() throws {
            guard !names.isEmpty else { throw ValidationError("Name at least one setting (rawcap config list).") }
        }

        func run() async throws {
            let names = self.names
            let states = try await ConfigSession.run(connection, command: "config get", json: json) { settings in
                try await settings.get(names)
            }
            if json {
                ConfigSession.printJSON(states)
            } else {
                for state in states { print("\(state.name)=\(state.value ?? "")") }
            }
        }
    }

    /// `rawcap config set NAME=VALUE…`.
    struct ConfigSet: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change settings: iso=400 shutter=1/125 aperture=f/8 wb=daylight ev=-1/3 quality=raw+jpeg.",
            discussion: """
                All values are checked against the camera's descriptors first, so a bad one changes nothing; then \
                each is set in order and read back. Prints the new values as NAME=VALUE.
                """)

        @OptionGroup var connection: ConnectionOptions

        @Flag(help: "Print JSON (stable keys).")
        var json = false

        @Argument(
            help: ArgumentHelp("NAME=VALUE pairs.", valueName: "name=value"),
            completion: .list(ConfigSession.settingNames.map { $0 + "=" }))
        var assignments: [String]

        func validate() throws {
            guard !assignments.isEmpty else { throw ValidationError("Give at least one NAME=VALUE.") }
        }

        func run() async throws {
            let assignments = self.assignments
            let states = try await ConfigSession.run(connection, command: "config set", json: json) { settings in
                try await settings.set(try PropertyAssignment.parse(assignments))
            }
            if json {
                ConfigSession.printJSON(states)
            } else {
                for state in states { print("\(state.name)=\(state.value ?? "")") }
            }
        }
    }
}

/// The session around a `config` subcommand: connect, read DeviceInfo, open a PTP session, run, close; failures
/// end as ``CommandFailure`` (one line on standard error, a JSON object with `--json`).
enum ConfigSession {
    static func run<T: Sendable>(
        _ options: ConnectionOptions, command: String, json: Bool,
        _ body: @escaping @Sendable (ConfigSettings) async throws -> T
    ) async throws -> T {
        // The parsed options are a value nobody mutates after parsing; argument-parser's property wrappers do not
        // declare Sendable, so the compiler cannot see that.
        nonisolated(unsafe) let options = options
        do {
            return try await Interruption.run {
                let camera = try await CameraConnector.connect(options)
                // Closing runs in a task of its own, so that it still happens after Ctrl-C cancelled this one.
                let close: @Sendable () async -> Void = {
                    await Task {
                        try? await camera.session.endSession()
                        await camera.close()
                    }.value
                }
                do {
                    let identity = try await camera.open()
                    let loaded = try await CameraSettings.load(session: camera.session, logger: options.logger)
                    // Each maker names and routes its settings its own way (a Nikon's image quality numbers mean
                    // different things on different bodies).
                    let settings = try await VendorKits.kit(for: identity).settings(loaded, identity)
                    // A maker whose image quality is no plain property (Canon EOS ImageFormat, set through the
                    // remote session) is reached through the capture profile's quality control.
                    let profile = VendorKits.profile(for: identity, logger: options.logger)
                    let routed = ConfigSettings(
                        settings: settings,
                        quality: (try? settings.definition(named: "quality")) == nil ? profile.qualityControl : nil)
                    do {
                        let result = try await body(routed)
                        if routed.quality != nil { await profile.driver.finish(session: camera.session, logger: options.logger) }
                        await close()
                        return result
                    } catch {
                        if routed.quality != nil { await profile.driver.finish(session: camera.session, logger: options.logger) }
                        throw error
                    }
                } catch {
                    await close()
                    throw error
                }
            }
        } catch let error as CaptureError where error.code == .remoteControlUnavailable {
            throw CommandFailure.report(CommandFailure(.notAvailable, error.detail), command: command, json: json)
        } catch {
            throw CommandFailure.report(error, command: command, json: json)
        }
    }

    /// Every readable setting name rawcap knows (for shell completion), standard and makers' alike.
    static var settingNames: [String] {
        var seen: Set<String> = []
        return PropertyCatalog.standard.definitions.map(\.name).filter { seen.insert($0).inserted }
    }

    /// `{"properties":[…]}`, keys sorted.
    static func printJSON(_ states: [PropertyState]) {
        struct Envelope: Encodable { var properties: [PropertyState] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Envelope(properties: states)) else { return }
        print(String(decoding: data, as: UTF8.self))
    }

    /// `text` padded with spaces to `width` characters.
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// One line per setting: name, value, access, allowed values.
    static func table(_ states: [PropertyState]) -> String {
        let nameWidth = states.map(\.name.count).max() ?? 0
        let valueWidth = min(20, states.map { ($0.value ?? "—").count }.max() ?? 0)
        return states.map { state in
            var line = pad(state.name, nameWidth) + "  "
            if let error = state.error { return line + pad("—", valueWidth) + "  " + error }
            line += pad(state.value ?? "—", valueWidth)
            line += state.writable == true ? "  " : "  (read-only) "
            line += state.allowedText == "any" ? "" : state.allowedText
            return line
        }.joined(separator: "\n")
    }
}

/// The settings `config` reads and writes: the camera's properties, and where the maker changes image quality through
/// its remote session rather than a property (``Capture/QualityControl``: Canon EOS ImageFormat through
/// SetDevicePropValueEx), `quality` as `raw`, `raw+jpeg` or `jpeg` through that control.
struct ConfigSettings: Sendable {
    let settings: CameraSettings
    let quality: (any QualityControl)?

    /// The names `quality` answers to.
    static let qualityNames: Set<String> = ["quality", "image-quality", "imagequality", "compression"]

    /// `raw`, `raw+jpeg`, `jpeg` (and the forms people write).
    static func shotQuality(_ text: String) -> ShotQuality? {
        switch text.lowercased() {
        case "raw", "nef", "cr2", "cr3": .raw
        case "raw+jpeg", "raw+jpeg-fine", "raw+jpg": .rawPlusJPEG
        case "jpeg", "jpeg-fine", "jpg": .jpeg
        default: nil
        }
    }

    static func name(_ quality: ShotQuality) -> String {
        switch quality {
        case .raw: "raw"
        case .rawPlusJPEG: "raw+jpeg"
        case .jpeg: "jpeg"
        }
    }

    func list() async throws -> [PropertyState] {
        var states = try await settings.list()
        if let quality { states.append(try await qualityState(quality)) }
        return states
    }

    func get(_ names: [String]) async throws -> [PropertyState] {
        guard let quality, names.contains(where: { Self.qualityNames.contains($0.lowercased()) }) else {
            return try await settings.get(names)
        }
        var states: [PropertyState] = []
        for name in names {
            states += Self.qualityNames.contains(name.lowercased())
                ? [try await qualityState(quality)] : try await settings.get([name])
        }
        return states
    }

    func set(_ assignments: [PropertyAssignment]) async throws -> [PropertyState] {
        guard let quality,
            let index = assignments.firstIndex(where: { Self.qualityNames.contains($0.name.lowercased()) })
        else { return try await settings.set(assignments) }
        // Checked before anything changes, as every other value is.
        let catalog = try await quality.read(session: settings.session)
        let allowed = catalog.qualities.map(Self.name)
        guard let wanted = Self.shotQuality(assignments[index].value), catalog.qualities.contains(wanted) else {
            throw CameraControlError(
                .invalidValue, property: "quality",
                catalog.qualities.isEmpty
                    ? "the camera does not let the host change it" : "\(assignments[index].value) is not a value the camera allows",
                allowed: allowed)
        }
        var rest = assignments
        rest.remove(at: index)
        var states = rest.isEmpty ? [] : try await settings.set(rest)
        try await quality.set(wanted, session: settings.session)
        states.insert(try await qualityState(quality), at: min(index, states.count))
        return states
    }

    /// `quality` as the control reads it.
    private func qualityState(_ control: any QualityControl) async throws -> PropertyState {
        let catalog = try await control.read(session: settings.session)
        let definition = PropertyDefinition(
            name: "quality", aliases: ["image-quality", "imagequality"], code: control.property, style: .text,
            summary: "Image quality: raw, raw+jpeg, jpeg")
        var state = PropertyState(definition, error: "", vendor: settings.vendor)
        state.error = nil
        state.type = "ImageFormat"
        state.writable = !catalog.qualities.isEmpty
        state.value = catalog.currentQuality.map(Self.name) ?? "other"
        state.allowed = catalog.qualities.map(Self.name)
        return state
    }
}
