import ArgumentParser
import FoundationEssentials
import PlatformSupport
import RawDecoders

extension RawcapCommand {
    /// The entry point: argument-parser's own flow (parse, run, `exit(withError:)`), with three habits of its own:
    /// options may come before the subcommand (`rawcap -v info`, `rawcap --camera sim shoot`), a command line that
    /// does not parse is reported as `rawcap COMMAND: …` like every other error (the usage after it, for people), and
    /// with `--json` among the arguments that failure is also the JSON error object on standard output, so that
    /// scripts get JSON for every failure.
    public static func main() async {
        let arguments = movingLeadingOptions(Array(CommandLine.arguments.dropFirst()))
        // Vendor raw files (and DNGs rawcap's reader does not decode) go to LibRaw in a worker process.
        RawDecoder.containedDecoder = DecodeWorker.containedDecoder(environment: ProcessInfo.processInfo.environment)
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // Commands report their own failures (one line, JSON) and throw the status as ExitCode.
            guard !(error is ExitCode), exitCode(for: error) == .validationFailure else { exit(withError: error) }
            let words = arguments.prefix { !$0.hasPrefix("-") && !$0.contains("=") }.prefix(2)
            let name = (["rawcap"] + words).joined(separator: " ")
            var text = fullMessage(for: error)
            if text.hasPrefix("Error: ") { text = name + ": " + text.dropFirst("Error: ".count) }
            text = gphoto2Hint(text)
            StandardError.print(text)
            if arguments.contains("--json") {
                let failure = CommandFailure(.usage, gphoto2Hint(message(for: error)))
                DescriptorIO.writeStandardOutput(failure.json(command: words.joined(separator: " ")) + "\n")
            }
            exit(withError: ExitCode.validationFailure)
        }
    }

    /// gphoto2's options and rawcap's words for them: an unknown option a gphoto2 user types gets rawcap's, not
    /// argument-parser's nearest spelling (`--frames` is not `--name`).
    static let gphoto2Options: [String: String] = [
        "--frames": "--count N (frames to shoot)",
        "-F": "--count N (frames to shoot)",
        "--filename": "--name TEMPLATE (gphoto2's %Y%m%d-%H%M%S-%n and %f codes work)",
        "--capture-image": "rawcap shoot",
        "--capture-image-and-download": "rawcap shoot",
        "--capture-tethered": "rawcap tether",
        "--set-config": "rawcap config set NAME=VALUE",
        "--set-config-value": "rawcap config set NAME=VALUE",
        "--get-config": "rawcap config get NAME",
        "--list-config": "rawcap config list",
        "--list-all-config": "rawcap config list",
        "--auto-detect": "rawcap list",
        "--summary": "rawcap info",
        "--list-files": "rawcap ls",
        "--get-all-files": "rawcap pull --all",
        "--get-file": "rawcap pull HANDLE",
        "--new": "rawcap pull --new",
        "--port": "--camera usb:BUS:ADDR, --camera serial:SN or --camera ptpip:HOST",
        "--keep-raw": "--keep-jpeg (RAW+JPEG: the DNG and the camera's JPEG)",
        "--force-overwrite": "nothing: rawcap never overwrites (a taken name gets -1, -2, …)",
    ]

    /// `text` (argument-parser's message) with its suggestion replaced by rawcap's word for a gphoto2 option.
    static func gphoto2Hint(_ text: String) -> String {
        guard let range = text.firstRange(of: "Unknown option '") else { return text }
        let rest = text[range.upperBound...]
        guard let end = rest.firstIndex(of: "'") else { return text }
        let option = String(rest[..<end])
        guard let word = gphoto2Options[option] else { return text }
        let lineEnd = text[end...].firstIndex(of: "\n") ?? text.endIndex
        return String(text[..<range.lowerBound]) + "Unknown option '\(option)' (gphoto2's); rawcap's is \(word)."
            + text[lineEnd...]
    }

    /// The options every camera command shares that take a value (`--camera sim`): the word after them is theirs,
    /// not a subcommand, when they come before the subcommand.
    static let leadingOptionsWithValues: Set<String> = [
        "--camera", "--timeout", "--log-level", "--record", "--replay-mode", "--sim-model", "--model", "--sim-sensor",
        "--sim-fault", "--sim-serial", "-o", "--output",
    ]

    /// `arguments` with the options before the subcommand moved after it (after `sim serve`, `config get`: the
    /// whole command path), as gphoto2 users type them: `rawcap -v info` is `rawcap info -v`. Arguments that do not
    /// start with options, or whose leading words are not options and a command, are returned as they are.
    static func movingLeadingOptions(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, first.hasPrefix("-"),
            !["-h", "--help", "--version"].contains(first), !first.hasPrefix("--generate-completion"),
            !first.hasPrefix("--experimental")
        else { return arguments }
        var index = 0
        let commands = configuration.subcommands
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { return arguments }
            if word.hasPrefix("-") {
                index += leadingOptionsWithValues.contains(word) ? 2 : 1
                continue
            }
            guard var command = commands.first(where: { $0._commandName == word }) else { return arguments }
            var end = index + 1
            while end < arguments.count,
                let sub = command.configuration.subcommands.first(where: { $0._commandName == arguments[end] })
            {
                command = sub
                end += 1
            }
            return Array(arguments[index..<end]) + Array(arguments[..<index]) + Array(arguments[end...])
        }
        return arguments
    }
}
