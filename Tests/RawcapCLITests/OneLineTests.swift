import Testing

@testable import RawcapCLI

/// Error and progress lines carry camera strings: one line, no control characters (issue 7, hostile camera).
@Suite struct OneLineTests {
    @Test func issue7_controlCharactersFromACameraAreShownNotSent() {
        #expect("Hostile\r\u{1B}]0;owned\u{07}Camera".oneLine == "Hostile \\x1B]0;owned\\x07Camera")
        #expect("a\u{0}b\u{7F}c\u{9B}d".oneLine == "a\\x00b\\x7Fc\\x9Bd")
        #expect("two\nlines\r\nhere".oneLine == "two lines here")
        #expect("tab\tand é ü 日本".oneLine == "tab\tand é ü 日本")
    }
}
