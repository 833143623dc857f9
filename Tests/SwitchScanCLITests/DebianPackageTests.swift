import Foundation
import Testing
import Platform
import TestTier

/// Issue 14: `scripts/package` builds a .deb that, unpacked into an empty root with no source
/// tree and no Swift toolchain in reach, runs with its shipped profiles, and carries its man
/// pages, completions, udev rule and user unit where Debian puts them.
@Suite("Debian package", .disabled(if: TestTier.isFast, "scripts/test --fast (SWITCHSCAN_FAST_TESTS=1) skips building the Debian package"), .serialized)
struct DebianPackageTests {
    /// The package, built once for the suite (a release build in .build-release: minutes the
    /// first time, seconds after).
    static let built: Result<URL, CLIError> = {
        // Beside the script's own build folder (ignored by git), not left in /tmp.
        let folder = CLI.packageRoot.appendingPathComponent(".build-release/test")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let deb = folder.appendingPathComponent("switchscan.deb")
        guard let result = try? CLI.runProgram("/bin/bash", [CLI.packageRoot.appendingPathComponent("scripts/package").path, "--output", deb.path]) else {
            return .failure(CLIError("scripts/package could not be started"))
        }
        guard result.status == 0, result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == deb.path else {
            return .failure(CLIError("scripts/package failed: \(result)"))
        }
        return .success(deb)
    }()

    static func deb() throws -> URL { try built.get() }

    /// The package unpacked into a new empty folder (`dpkg -x`), as dpkg would install it.
    static func unpack() throws -> (folder: TemporaryFolder, root: URL) {
        let folder = try TemporaryFolder()
        let root = folder.url.appendingPathComponent("root")
        let result = try CLI.runProgram("/usr/bin/dpkg-deb", ["-x", try deb().path, root.path])
        #expect(result.status == 0, "\(result)")
        return (folder, root)
    }

    /// The installed program run with a bare environment: no toolchain on PATH, no library path,
    /// a new home, XDG_DATA_DIRS pointing nowhere (only `../share/switchscan` beside it can be
    /// found), in a folder with nothing in it.
    static func runInstalled(_ root: URL, _ arguments: [String], work: URL) throws -> CLI.Result {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let home = work.appendingPathComponent("home")
        return try CLI.runProgram(root.appendingPathComponent("usr/bin/switchscan").path, arguments, in: work, environment: [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_DATA_DIRS": "/nonexistent", "LANG": "C.UTF-8",
        ])
    }

    static func control() throws -> [String: String] {
        let result = try CLI.runProgram("/usr/bin/dpkg-deb", ["-f", try deb().path])
        #expect(result.status == 0, "\(result)")
        var fields = [String: String]()
        var last: String?
        for line in result.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(" "), let key = last { fields[key, default: ""] += "\n" + line; continue }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = String(line[..<colon])
            fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            last = key
        }
        return fields
    }

    /// The package names in a Depends field (alternatives and versions dropped).
    static func packageNames(_ field: String) -> Set<String> {
        Set(field.split(separator: ",").compactMap { entry in
            entry.split(separator: "|").first?.split(separator: " ").first.map(String.init)
        })
    }

    @Test func controlFieldsAndDependencies() throws {
        let fields = try Self.control()
        #expect(fields["Package"] == "switchscan")
        let version = try CLI.run(["--version"]).stdout.split(separator: " ").first.map(String.init)
        #expect(fields["Version"] == version, "\(fields)")
        let depends = Self.packageNames(fields["Depends"] ?? "")
        for needed in ["libevdev2", "libbrlapi0.8", "liblouis20", "liblouis-data", "libc6"] {
            #expect(depends.contains(needed), "Depends: \(fields["Depends"] ?? "none")")
        }
        // BRLTTY (with polkitd, systemd and python3 behind it) only serves braille displays:
        // suggested, so that neither a default install nor a minimal one pulls it.
        #expect(!depends.contains("brltty"), "brltty is suggested, not required")
        #expect(!Self.packageNames(fields["Recommends"] ?? "").contains("brltty"), "\(fields)")
        #expect(Self.packageNames(fields["Suggests"] ?? "").contains("brltty"), "\(fields)")
        #expect(fields["Installed-Size"].flatMap(Int.init).map { $0 > 1000 } == true, "\(fields)")
    }

    /// Every shared library the binary needs is provided by a package it depends on; none is a
    /// Swift runtime library (linked statically, so no toolchain is needed).
    @Test func theBinaryNeedsOnlyLibrariesOfItsDependencies() throws {
        let (folder, root) = try Self.unpack()
        _ = folder
        let binary = root.appendingPathComponent("usr/bin/switchscan").path
        let elf = try CLI.runProgram("/usr/bin/readelf", ["-d", binary])
        #expect(elf.status == 0, "\(elf)")
        let needed = elf.stdout.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        #expect(needed.contains("libevdev.so.2") && needed.contains("libbrlapi.so.0.8") && needed.contains("liblouis.so.20"), "\(needed)")
        #expect(needed.allSatisfy { !$0.hasPrefix("libswift") && !$0.hasPrefix("libFoundation") && !$0.hasPrefix("libdispatch") },
                "a Swift runtime library is linked dynamically: \(needed)")
        let depends = Self.packageNames(try Self.control()["Depends"] ?? "")
        let cache = try CLI.runProgram("/sbin/ldconfig", ["-p"])
        for library in needed {
            // `libevdev.so.2 (libc6,x86-64) => /lib/x86_64-linux-gnu/libevdev.so.2`
            let path = cache.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(library + " ") }
                .flatMap { $0.components(separatedBy: " => ").last }
            let found = try #require(path, "\(library) is not in the linker cache")
            // Debian 12 merges /lib into /usr/lib; dpkg knows the path the package shipped.
            var owner = try CLI.runProgram("/usr/bin/dpkg", ["-S", found])
            if owner.status != 0 {
                let other = found.hasPrefix("/usr/") ? String(found.dropFirst(4)) : "/usr" + found
                owner = try CLI.runProgram("/usr/bin/dpkg", ["-S", other])
            }
            let package = owner.stdout.split(separator: ":").first.map(String.init) ?? ""
            #expect(depends.contains(package), "\(library) comes from '\(package)', which Depends does not name (\(owner))")
        }
    }

    @Test func filesAreWhereDebianPutsThem() throws {
        let (folder, root) = try Self.unpack()
        _ = folder
        let expected = [
            "usr/bin/switchscan",
            "usr/share/switchscan/switches/origin-tapio.yaml", "usr/share/switchscan/braille/orbit-reader-20.yaml",
            "usr/share/switchscan/build-info",
            "lib/udev/rules.d/70-switchscan.rules",
            "usr/lib/systemd/user/switchscan.service",
            "usr/share/man/man1/switchscan.1.gz", "usr/share/man/man1/switchscan-run.1.gz", "usr/share/man/man1/switchscan-settings-set.1.gz",
            "usr/share/man/man5/switchscan-settings.5.gz", "usr/share/man/man5/switchscan-scene.5.gz",
            "usr/share/bash-completion/completions/switchscan", "usr/share/zsh/vendor-completions/_switchscan",
            "usr/share/fish/vendor_completions.d/switchscan.fish",
            "usr/share/doc/switchscan/copyright", "usr/share/doc/switchscan/changelog.gz",
            "usr/share/doc/switchscan/examples/switch-control-groups.yaml",
            // Also where a dpkg path-exclude of /usr/share/doc/* leaves them.
            "usr/share/switchscan/examples/switch-control-groups.yaml", "usr/share/switchscan/examples/bowler.yaml",
            "usr/share/doc/switchscan/docs/packaging.md.gz", "usr/share/doc/switchscan/switch-profiles.md.gz",
        ]
        for path in expected {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "\(path) is not in the package")
        }
        // The unit runs the installed program, not one in ~/.local/bin.
        let unit = try String(contentsOf: root.appendingPathComponent("usr/lib/systemd/user/switchscan.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/switchscan run "), "\(unit)")
        #expect(!unit.contains(".local/bin"), "\(unit)")
        // The same udev rule as the repository's.
        #expect(try Data(contentsOf: root.appendingPathComponent("lib/udev/rules.d/70-switchscan.rules"))
                == Data(contentsOf: CLI.packageRoot.appendingPathComponent("Devices/switches/70-switchscan.rules")))
    }

    @Test func lintianFindsNothingUnexplained() throws {
        let lintian = try CLI.runProgram("/usr/bin/lintian", [
            "--suppress-tags-from-file", CLI.packageRoot.appendingPathComponent("scripts/lintian-explained").path, try Self.deb().path,
        ])
        let tags = (lintian.stdout + lintian.stderr).split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        #expect(tags.isEmpty, "\(lintian)")
        #expect(lintian.status == 0, "\(lintian)")
    }

    /// The installed program, with no source tree in reach: its version names the packaged
    /// commit, `devices --json` finds the profiles beside it, and a seed scene's tests (one uses
    /// the shipped Tapio profile by id) pass.
    @Test func theInstalledProgramWorksWithoutTheSourceTree() throws {
        let (folder, root) = try Self.unpack()
        let work = folder.url.appendingPathComponent("work")

        let version = try Self.runInstalled(root, ["--version"], work: work)
        #expect(version.status == 0, "\(version)")
        let head = try CLI.runProgram("/usr/bin/git", ["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let release = try CLI.run(["--version"]).stdout.split(separator: " ").first.map(String.init) ?? "?"
        #expect(version.stdout.hasPrefix("\(release) (commit \(head.prefix(12)), built "), "\(version)")

        let devices = try Self.runInstalled(root, ["devices", "--json"], work: work)
        #expect(devices.status == 0, "\(devices)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(devices.stdout.utf8)) as? [String: Any], "\(devices)")
        let sources = try #require(object["switchProfileSources"] as? [[String: Any]], "\(devices)")
        let shipped = try #require(sources.first { ($0["origin"] as? String) == "shipped, installed beside the program" }, "\(sources)")
        #expect(shipped["path"] as? String == root.appendingPathComponent("usr/share/switchscan/switches").path)
        #expect((shipped["profiles"] as? [String])?.contains("origin-tapio") == true, "\(shipped)")
        #expect(!devices.stdout.contains(CLI.packageRoot.path), "the source tree was found: \(devices)")

        let scene = work.appendingPathComponent("scene.yaml")
        try FileManager.default.copyItem(at: root.appendingPathComponent("usr/share/doc/switchscan/examples/switch-control-groups.yaml"), to: scene)
        let test = try Self.runInstalled(root, ["test", "scene.yaml"], work: work)
        #expect(test.status == 0, "\(test)")
        #expect(test.stdout.contains(" passed, 0 failed"), "\(test)")
        #expect(test.stdout.contains("Tapio"), "the scene's Tapio test (shipped profile by id) did not run: \(test)")
    }

    /// A build cut short (here dpkg-deb fails after writing part of its output) leaves nothing at
    /// the package's path, and no temporary file beside it; a build that succeeds says how to
    /// install what it made.
    @Test func anInterruptedBuildLeavesNoTruncatedPackage() throws {
        _ = try Self.deb()
        let folder = try TemporaryFolder()
        let bin = folder.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        // The last argument of `dpkg-deb --build STAGE FILE` is where the package goes.
        let fake = try folder.write("bin/dpkg-deb", """
            #!/bin/sh
            for last; do :; done
            head -c 4096 /bin/sh > "$last"
            exit 1
            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake)
        let deb = folder.url.appendingPathComponent("out/switchscan.deb")
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "\(bin.path):" + (environment["PATH"] ?? "/usr/bin:/bin")
        let result = try CLI.runProgram("/bin/bash", [CLI.packageRoot.appendingPathComponent("scripts/package").path, "--output", deb.path],
                                        environment: environment)
        #expect(result.status != 0, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: deb.path), "a truncated package was left at \(deb.path)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: deb.deletingLastPathComponent().path)) ?? []
        #expect(left.isEmpty, "left beside it: \(left)")

        let built = try CLI.runProgram("/bin/bash", [CLI.packageRoot.appendingPathComponent("scripts/package").path, "--output", deb.path])
        #expect(built.status == 0, "\(built)")
        #expect(built.stderr.contains("sudo apt install \(deb.path)"), "\(built.stderr.suffix(500))")
    }

    /// Man pages parse for whatis (apropos finds them) and show the command as typed; the bash
    /// completion loads and completes subcommands; zsh and fish files are theirs.
    @Test func manPagesAndCompletions() throws {
        let (folder, root) = try Self.unpack()
        _ = folder
        let manuals = root.appendingPathComponent("usr/share/man/man1")
        let pages = try FileManager.default.contentsOfDirectory(atPath: manuals.path).sorted()
        #expect(pages.count >= 15, "\(pages)")
        for page in pages {
            let whatis = try CLI.runProgram("/usr/bin/lexgrog", [manuals.appendingPathComponent(page).path])
            #expect(whatis.status == 0 && !whatis.stdout.contains("parse failed"), "\(page): \(whatis)")
        }
        let run = try CLI.runProgram("/usr/bin/man", ["-l", manuals.appendingPathComponent("switchscan-run.1.gz").path],
                                     environment: ["MANWIDTH": "100", "PATH": "/usr/bin:/bin", "MAN_KEEP_FORMATTING": "0"])
        #expect(run.status == 0, "\(run)")
        // man's overstrike (bold is `c\bc`, underline `_\bc`): each backspace takes the character before it.
        var text = ""
        for character in run.stdout {
            if character == "\u{8}" { _ = text.popLast() } else { text.append(character) }
        }
        #expect(text.contains("switchscan-run - Operate a scene live"), "\(text.prefix(600))")
        #expect(text.contains("switchscan run [scene] [--atspi]"), "\(text.prefix(900))")
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")

        let completion = root.appendingPathComponent("usr/share/bash-completion/completions/switchscan").path
        let bash = try CLI.runProgram("/bin/bash", ["-c", """
            source '\(completion)'
            COMP_WORDS=(switchscan dev); COMP_CWORD=1; COMP_LINE='switchscan dev'; COMP_POINT=${#COMP_LINE}
            fn=$(complete -p switchscan | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
            "$fn" switchscan dev switchscan
            printf '%s\\n' "${COMPREPLY[@]}"
            """])
        #expect(bash.status == 0, "\(bash)")
        #expect(bash.stdout.split(separator: "\n").contains("devices"), "\(bash)")
        let zsh = try String(contentsOf: root.appendingPathComponent("usr/share/zsh/vendor-completions/_switchscan"), encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef switchscan"), "\(zsh.prefix(80))")
        let fish = try String(contentsOf: root.appendingPathComponent("usr/share/fish/vendor_completions.d/switchscan.fish"), encoding: .utf8)
        #expect(fish.contains("complete -c 'switchscan'"), "\(fish.prefix(300))")
    }
}

extension DebianPackageTests {
    /// The machine's own Debian mirror (the first `URIs:` of its apt sources), so that the test
    /// fetches from where `scripts/setup` does.
    static func debianMirror() -> String? {
        let folder = "/etc/apt/sources.list.d"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".sources") }.sorted()
        for file in files {
            guard let text = try? String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8) else { continue }
            var uris: String?
            var suites = ""
            for line in text.split(separator: "\n") {
                if line.hasPrefix("URIs:") { uris = line.dropFirst(5).trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) }
                if line.hasPrefix("Suites:") { suites = String(line) }
                if let uris, suites.contains("bookworm"), !suites.contains("security"), !uris.contains("security") { return uris }
            }
        }
        if let text = try? String(contentsOfFile: "/etc/apt/sources.list", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("deb ") && line.contains("bookworm") && !line.contains("security") {
                let words = line.split(separator: " ").filter { !$0.hasPrefix("[") }
                if words.count > 1 { return String(words[1]) }
            }
        }
        return nil
    }

    /// Done means: on a fresh Debian 12 the package installs with apt (which must find every
    /// dependency it names) and works: a minimal Debian 12 made by debootstrap, the .deb
    /// installed in it by `apt-get install`, then the program run inside it (chroot, with /proc
    /// mounted in a private mount namespace, gone with the process whatever happens to it).
    @Test func installsWithAptOnAFreshDebian12() throws {
        try #require(CurrentProcess.isRoot, "debootstrap and chroot need root")
        let mirror = try #require(Self.debianMirror(), "no Debian bookworm mirror in the apt sources")
        let folder = try TemporaryFolder()
        let root = folder.url.appendingPathComponent("debian12")
        // Downloaded packages are kept between runs beside the package build.
        let cache = CLI.packageRoot.appendingPathComponent(".build-release/debootstrap-cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let bootstrap = try CLI.runProgram("/usr/sbin/debootstrap", [
            "--variant=minbase", "--cache-dir=\(cache.path)", "bookworm", root.path, mirror,
        ])
        try #require(bootstrap.status == 0, "\(bootstrap.stdout.suffix(2000)) \(bootstrap.stderr.suffix(2000))")
        // Nothing of the toolchain or of the clone is in there.
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("opt/swift").path))
        try FileManager.default.copyItem(at: try Self.deb(), to: root.appendingPathComponent("tmp/switchscan_test.deb"))
        try? FileManager.default.removeItem(at: root.appendingPathComponent("etc/resolv.conf"))
        try FileManager.default.copyItem(atPath: "/etc/resolv.conf", toPath: root.appendingPathComponent("etc/resolv.conf").path)
        let script = """
            set -e
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/switchscan_test.deb >/dev/null
            echo "== version"; switchscan --version
            echo "== status"; dpkg-query -W -f='${Status}\\n' switchscan
            echo "== suggested"; dpkg-query -W -f='${Status}\\n' brltty polkitd python3 2>/dev/null || true
            cp /usr/share/doc/switchscan/examples/switch-control-groups.yaml /root/scene.yaml
            cd /root
            echo "== devices"; switchscan devices | grep 'installed beside the program'
            echo "== test"; switchscan test scene.yaml | tail -1
            # A helper's session on the installed system: the manual, completion, a settings
            # file repaired, and what an unattended run says for the journal.
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq man-db >/dev/null
            echo "== man"; MANWIDTH=80 man 5 switchscan-settings 2>&1 | grep -m1 -E '^ *autoScanningTime'
            echo "== completion"; COMPLETION=/usr/share/bash-completion/completions/switchscan LINE='switchscan run sc' bash -c "$DRIVER"
            printf 'autoScanningTime: fast\nloops: 3\n' > settings.yaml
            echo "== repair"; switchscan settings set autoScanningTime 1.5 --file settings.yaml >/dev/null 2>&1; cat settings.yaml
            echo "== unattended"; switchscan run scene.yaml --input evdev:/dev/input/event99 --no-view --duration 1 </dev/null 2>&1 >/dev/null || true
            echo "== end"
            """
        let install = try CLI.runProgram("/usr/bin/unshare", [
            "--mount", "--fork", "/bin/sh", "-c",
            "mount -t proc proc '\(root.path)/proc' && exec chroot '\(root.path)' /bin/sh -c \"$0\"", script,
        ], environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8", "HOME": "/root",
                         "DRIVER": CompletionTests.bashDriver])
        #expect(install.status == 0, "\(install)")
        let sections = install.stdout.components(separatedBy: "== ").reduce(into: [String: String]()) { found, part in
            guard let newline = part.firstIndex(of: "\n") else { return }
            found[String(part[..<newline])] = String(part[part.index(after: newline)...]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let head = try CLI.runProgram("/usr/bin/git", ["rev-parse", "HEAD"]).stdout.prefix(12)
        #expect(sections["version"]?.contains("(commit \(head), built ") == true, "\(install)")
        #expect(sections["status"] == "install ok installed", "\(install)")
        // BRLTTY is suggested: a default install (recommended packages on) pulls neither it nor
        // polkitd or python3, which came with it.
        #expect(!(sections["suggested"] ?? "").contains("install ok installed"), "\(install)")
        #expect(sections["devices"]?.contains("/usr/share/switchscan/switches (shipped, installed beside the program): 8 profiles") == true, "\(install)")
        #expect(sections["test"]?.hasSuffix("passed, 0 failed") == true, "\(install)")
        #expect(sections["man"]?.contains("autoScanningTime") == true, "\(install)")
        #expect(sections["completion"]?.split(separator: "\n").contains("scene.yaml") == true, "\(install)")
        #expect(sections["repair"] == "autoScanningTime: 1.5\nloops: 3", "\(install)")
        #expect(sections["unattended"]?.contains("/dev/input/event99") == true, "\(install)")
    }
}

/// Issue 14's proofreading: help texts are paragraphs the parser wraps, so a line broken by hand
/// inside a sentence shows as a short line followed by its lower-case continuation.
@Suite struct HelpTextTests {
    static let commands = ["", "inspect", "validate", "audit", "test", "cost", "import", "run", "snapshot",
                           "settings", "settings set", "devices", "learn"]

    @Test(arguments: commands)
    func noSentenceIsBrokenByHand(_ command: String) throws {
        let result = try CLI.run(command.split(separator: " ").map(String.init) + ["--help"])
        #expect(result.status == 0, "\(result)")
        let text = result.stdout.prefix { _ in true }
        let prose = text.components(separatedBy: "\nUSAGE:").first ?? ""
        let lines = prose.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (line, next) in zip(lines, lines.dropFirst()) where !line.isEmpty && !next.isEmpty && !line.hasPrefix("  ") {
            let startsLower = next.first.map { $0.isLowercase } ?? false
            #expect(!(line.count < 60 && startsLower), "'\(line)' is cut short before '\(next)' in `switchscan \(command) --help`")
        }
        #expect(!result.stdout.contains("(default 10). (default"), "\(result.stdout)")
    }

    /// An installed system has no README and no Devices/ folder: help texts name the installed
    /// documents (and the source tree's, for a program built from a clone).
    @Test(arguments: commands)
    func pointsToInstalledDocumentation(_ command: String) throws {
        let result = try CLI.run(command.split(separator: " ").map(String.init) + ["--help"])
        let text = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!text.contains("see README"), "`switchscan \(command) --help`: \(text)")
        if text.contains("Devices/switches/README.md") {
            #expect(text.contains("/usr/share/doc/switchscan/switch-profiles.md.gz"), "`switchscan \(command) --help`: \(text)")
        }
        if text.contains("Scenarios/") {
            #expect(text.contains("/usr/share/switchscan/examples"), "`switchscan \(command) --help`: \(text)")
        }
    }
}
