import ArgumentParser
import FoundationEssentials
import RawDecoders

extension RawcapCommand {
    /// The entry point: argument-parser's own flow (parse, run, `exit(withError:)`), plus the JSON error object on
    /// standard output for a command line that does not parse when `--json` is among the arguments, so that
    /// scripts get JSON for every failure. Usage text still goes to standard error for people.
    public static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
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
            if !(error is ExitCode), arguments.contains("--json"), exitCode(for: error) == .validationFailure {
                let words = arguments.prefix { !$0.hasPrefix("-") && !$0.contains("=") }.prefix(2)
                let failure = CommandFailure(.usage, message(for: error))
                print(failure.json(command: words.joined(separator: " ")))
            }
            exit(withError: error)
        }
    }
}
