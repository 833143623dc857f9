import Foundation
import Testing

/// The example files shipped for the person setting up a switch user: the systemd user unit is
/// checked by systemd itself, installed as its comment says (a home with switchscan in
/// ~/.local/bin and a scene in ~/.config/switchscan).
@Suite("Example files")
struct ExampleFilesTests {
    static let systemdAnalyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test("systemd-analyze verify accepts the user unit, installed as documented",
          .enabled(if: systemdAnalyze != nil, "systemd-analyze is not installed"))
    func systemdUnitVerifies() throws {
        let folder = try TemporaryFolder()
        let home = folder.url.appendingPathComponent("home").path
        let runtime = folder.url.appendingPathComponent("run").path
        let units = home + "/.config/systemd/user"
        for path in [home + "/.local/bin", home + "/.config/switchscan", units, runtime] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        try FileManager.default.copyItem(atPath: try CLI.binary().path, toPath: home + "/.local/bin/switchscan")
        try FileManager.default.copyItem(atPath: CLI.packageRoot.appendingPathComponent("Scenarios/switch-control-groups.yaml").path,
                                         toPath: home + "/.config/switchscan/scene.yaml")
        let unit = units + "/switchscan.service"
        try FileManager.default.copyItem(atPath: CLI.packageRoot.appendingPathComponent("Devices/systemd/switchscan.service").path,
                                         toPath: unit)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.systemdAnalyze))
        process.arguments = ["--user", "verify", unit]
        process.environment = ["HOME": home, "XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"]
        let errURL = folder.url.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardOutput = try folder.outputFile("stdout")
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let said = String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        // systemd reports unknown keys and bad values on standard error (and still exits 0).
        #expect(process.terminationStatus == 0, "\(said)")
        #expect(said.isEmpty, "\(said)")

        // The check is real: a unit whose program is missing is refused.
        try FileManager.default.removeItem(atPath: home + "/.local/bin/switchscan")
        let missing = Process()
        missing.executableURL = process.executableURL
        missing.arguments = process.arguments
        missing.environment = process.environment
        missing.standardError = try folder.outputFile("missing-stderr")
        missing.standardOutput = try folder.outputFile("missing-stdout")
        try missing.run()
        missing.waitUntilExit()
        #expect(missing.terminationStatus != 0)
    }

    @Test("systemd-analyze security rates the user unit's sandboxing OK (exposure at most 3.0)",
          .enabled(if: systemdAnalyze != nil, "systemd-analyze is not installed"))
    func systemdUnitIsSandboxed() throws {
        let folder = try TemporaryFolder()
        let runtime = folder.url.appendingPathComponent("run").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let unit = folder.url.appendingPathComponent("switchscan.service").path
        try FileManager.default.copyItem(atPath: CLI.packageRoot.appendingPathComponent("Devices/systemd/switchscan.service").path,
                                         toPath: unit)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.systemdAnalyze))
        process.arguments = ["security", "--offline=true", "--user", "--no-pager", unit]
        process.environment = ["HOME": folder.url.path, "XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = try #require(said.split(separator: "\n").first { $0.contains("Overall exposure level") }, "\(said)")
        // The figure may be wrapped in terminal colour codes: the first number after the unit's name.
        let after = line.components(separatedBy: ".service:").last ?? ""
        let digits = after.drop { !$0.isNumber }.prefix { $0.isNumber || $0 == "." }
        let score = try #require(Double(digits), "\(line)")
        #expect(score <= 3.0, "\(line)")
        for setting in ["NoNewPrivileges=", "ProtectSystem=", "PrivateTmp=", "RestrictAddressFamilies=~AF_PACKET"] {
            #expect(said.split(separator: "\n").contains { $0.contains("✓") && $0.contains(setting) }, "\(setting) applies: \(said)")
        }
    }
}
