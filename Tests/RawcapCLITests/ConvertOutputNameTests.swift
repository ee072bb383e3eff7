import Testing

@testable import RawcapCLI

/// Where `rawcap convert` puts each file: the input's stem in the output folder or beside the input.
@Suite struct ConvertOutputNameTests {
    @Test func besideTheInputOrInTheOutputFolder() {
        #expect(
            ConvertOutputName(input: "DSC_0042.NEF", folder: nil, fileExtension: "dng").path(suffix: 0)
                == "DSC_0042.dng")
        #expect(
            ConvertOutputName(input: "shots/DSC_0042.NEF", folder: nil, fileExtension: "dng").path(suffix: 2)
                == "shots/DSC_0042-2.dng")
        #expect(
            ConvertOutputName(input: "/DSC_0042.NEF", folder: nil, fileExtension: "tif").path(suffix: 0)
                == "/DSC_0042.tif")
        #expect(
            ConvertOutputName(input: "shots/a.b.CR2", folder: "out/", fileExtension: "dng").path(suffix: 1)
                == "out/a.b-1.dng")
        #expect(
            ConvertOutputName(input: "shots/a.CR2", folder: "/", fileExtension: "dng").path(suffix: 0)
                == "/a.dng")
    }

    /// A one-character input name (full Foundation's NSString path code trapped on it) and runs of slashes.
    @Test func shortNamesAndDoubledSlashes() {
        #expect(ConvertOutputName(input: "x", folder: nil, fileExtension: "dng").path(suffix: 0) == "x.dng")
        #expect(
            ConvertOutputName(input: "shots//x.NEF", folder: nil, fileExtension: "dng").path(suffix: 0)
                == "shots/x.dng")
    }

    @Test func namesWithoutAStemStayVisible() {
        // ".nef" alone has no stem; a hidden ".dng" would look like a temporary file.
        #expect(
            ConvertOutputName(input: "x/.nef", folder: nil, fileExtension: "dng").path(suffix: 0)
                == "x/converted.nef.dng")
        #expect(
            ConvertOutputName(input: "noextension", folder: "o", fileExtension: "dng").path(suffix: 0)
                == "o/noextension.dng")
    }
}
