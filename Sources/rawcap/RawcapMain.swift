import RawcapCLI

@main extension RawcapCommand {}
