import Foundation
import TestSupport
import Testing

/// `make install PREFIX=…` puts every file in place: the binary, the manual page, the completions and the udev rule.
@Suite(.serialized) struct InstallTests {
    @Test func installIntoATemporaryPrefix() async throws {
        let root = ExternalTool.packageRoot
        let make = try ExternalTool.require("make")
        // The debug build `swift test` made, and the manual page `make test` makes first (`make man`): the test runs
        // inside `swift test`, which holds the build lock, so it cannot build.
        let binary = try #require(ChildProcess.builtProduct(named: "rawcap"), "the rawcap binary was not built")
        let configuration = URL(fileURLWithPath: binary).deletingLastPathComponent().lastPathComponent
        let manPage = root.appendingPathComponent(".build/man/rawcap.1").path
        if !FileManager.default.fileExists(atPath: manPage) {
            let message = "\(manPage) is missing: run `make man INSTALL_CONFIG=debug` (make test does)"
            if ExternalTool.isCI { Issue.record(Comment(rawValue: message)) }
            try Test.cancel(Comment(rawValue: message))
        }
        let folder = try TemporaryDirectory("install")
        let prefix = folder.file("prefix").path
        let rules = folder.file("udev").path
        let result = try await Subprocess.runDetached(
            make,
            [
                "-C", root.path, "install", "INSTALL_BUILD=0", "INSTALL_CONFIG=\(configuration)", "PREFIX=\(prefix)",
                "UDEV_RULES_DIR=\(rules)", "DESTDIR=",
            ])
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")

        let expected = [
            "prefix/bin/rawcap", "prefix/share/man/man1/rawcap.1", "prefix/share/bash-completion/completions/rawcap",
            "prefix/share/zsh/site-functions/_rawcap", "prefix/share/fish/vendor_completions.d/rawcap.fish",
            "udev/60-rawcap.rules",
        ]
        for path in expected {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.file(path).path)
            #expect((attributes[.size] as? Int ?? 0) > 0, "\(path) is empty")
        }
        #expect(FileManager.default.isExecutableFile(atPath: folder.file("prefix/bin/rawcap").path))
        let bash = try String(
            contentsOf: folder.file("prefix/share/bash-completion/completions/rawcap"), encoding: .utf8)
        #expect(bash.contains("config") && bash.contains("complete"))
        // The bash script parses, and registers the completion when sourced.
        let bashCheck = try await Subprocess.runDetached(
            "/bin/bash",
            [
                "-c", "source \"$1\" && complete -p rawcap", "bash",
                folder.file("prefix/share/bash-completion/completions/rawcap").path,
            ])
        #expect(bashCheck.status == 0, "\(bashCheck.errorOutput)")
        let fish = try String(
            contentsOf: folder.file("prefix/share/fish/vendor_completions.d/rawcap.fish"), encoding: .utf8)
        #expect(fish.contains("complete -c 'rawcap'"))
        let zsh = try String(contentsOf: folder.file("prefix/share/zsh/site-functions/_rawcap"), encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef rawcap"))
        let rule = try String(contentsOf: folder.file("udev/60-rawcap.rules"), encoding: .utf8)
        #expect(rule.contains("plugdev"))

        let installed = try await Subprocess.runDetached(folder.file("prefix/bin/rawcap").path, ["--version"])
        #expect(installed.status == 0)

        // The manual page renders: man -l when man is installed, groff otherwise.
        let page = folder.file("prefix/share/man/man1/rawcap.1").path
        let rendered: Subprocess.Result
        if let man = ExternalTool.find("man") {
            rendered = try await Subprocess.runDetached(
                man, ["-l", "-P", "cat", page], environment: ["MANWIDTH": "100"])
        } else {
            let groff = try ExternalTool.require("groff")
            rendered = try await Subprocess.runDetached(groff, ["-mandoc", "-Tutf8", page])
        }
        #expect(rendered.status == 0, "\(rendered.errorOutput)")
        #expect(rendered.output.contains("rawcap"))
        #expect(rendered.output.contains("config"), "the subcommands are in the page")
        for section in ["ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
            #expect(rendered.output.contains("\n\(section)\n"), "the page has \(section)")
        }
        #expect(rendered.output.contains("rawcap-journal.jsonl") && rendered.output.contains("ptpip-guid"))

        // make uninstall removes every file make install put there.
        let uninstall = try await Subprocess.runDetached(
            make, ["-C", root.path, "uninstall", "PREFIX=\(prefix)", "UDEV_RULES_DIR=\(rules)", "DESTDIR="])
        #expect(uninstall.status == 0, "\(uninstall.errorOutput)")
        for path in expected {
            #expect(!FileManager.default.fileExists(atPath: folder.file(path).path), "\(path) is left")
        }

        // Without UDEV_RULES_DIR the rule stays under PREFIX too (PREFIX/lib/udev/rules.d), and the install says how
        // to put it where udev reads it; with DESTDIR everything lands under it.
        let staged = try await Subprocess.runDetached(
            make,
            [
                "-C", root.path, "install", "INSTALL_BUILD=0", "INSTALL_CONFIG=\(configuration)", "PREFIX=/usr",
                "DESTDIR=\(folder.file("stage").path)",
            ])
        #expect(staged.status == 0, "\(staged.output)\n\(staged.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: folder.file("stage/usr/lib/udev/rules.d/60-rawcap.rules").path))
        #expect(FileManager.default.fileExists(atPath: folder.file("stage/usr/bin/rawcap").path))
        let local = try await Subprocess.runDetached(
            make,
            [
                "-C", root.path, "install", "INSTALL_BUILD=0", "INSTALL_CONFIG=\(configuration)",
                "PREFIX=\(folder.file("local").path)", "DESTDIR=",
            ])
        #expect(local.status == 0, "\(local.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: folder.file("local/lib/udev/rules.d/60-rawcap.rules").path))
        #expect(local.output.contains("make install-udev"))
    }
}
