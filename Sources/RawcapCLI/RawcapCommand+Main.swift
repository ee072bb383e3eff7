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
            StandardError.print(text)
            if arguments.contains("--json") {
                let failure = CommandFailure(.usage, message(for: error))
                DescriptorIO.writeStandardOutput(failure.json(command: words.joined(separator: " ")) + "\n")
            }
            exit(withError: ExitCode.validationFailure)
        }
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
