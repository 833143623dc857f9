import AccessibilityModel
import ArgumentParser
import BrailleFormatting
import Louis
import Foundation
import Runtime
import Scanning
import Scenes
import Platform

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Operate a scene live: the terminal keyboard as switches, the screen and the braille line drawn in the terminal.",
        discussion: """
            Keys: Space select, Enter next, Backspace previous, m menu, t tap, Esc escape, \
            s stop (pause and resume), arrows move; q or Ctrl-C quits and restores the terminal. \
            When standard input is a pipe, its bytes are read as keystrokes and its end stops the run. \
            Ctrl-Z suspends the run and gives the terminal back; fg resumes it and redraws.
            """ + "\n\n" + ProfileSources.helpParagraph(.switches) + "\n\n" + ProfileSources.helpParagraph(.braille))

    @Argument(help: "The scene file (none with --atspi).", completion: Completions.scenes)
    var scene: String?

    @Flag(help: "Operate a running application through AT-SPI instead of a scene: the focused application's active window, or the one --app or --window names.")
    var atspi = false

    @Option(help: ArgumentHelp("With --atspi: the application whose window is scanned (its name contains NAME).", valueName: "name"))
    var app: String?

    @Option(help: ArgumentHelp("With --atspi: the window whose title contains TITLE.", valueName: "title"))
    var window: String?

    @Flag(name: .customLong("no-overlay"), help: "With --atspi: do not draw the highlight on the screen (a frame around the highlighted element on X11; never drawn without DISPLAY or on Wayland).")
    var noOverlay = false

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Set a scanning setting by its name (repeatable), e.g. --set autoScanningTime=1.5 --set tapBehavior=alwaysTap.",
        valueName: "name=value"), completion: Completions.settingAssignments)
    var settingOverrides: [String] = []

    @Option(name: .customLong("settings"), help: ArgumentHelp(
        "A settings file (YAML: setting names and values, as for --set) instead of the configuration folder's settings.yaml ($XDG_CONFIG_HOME/switchscan/settings.yaml, read when present); none: no file. It is watched while the run goes on: an edit applies at once, an edit with errors is said (file:line:column) and the settings in effect stay. --set wins over the file.",
        valueName: "file"), completion: Completions.yamlFiles)
    var settingsFile: String?

    @Option(help: ArgumentHelp("Write the trace as JSON lines, one per event.", valueName: "file"), completion: .file())
    var trace: String?

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var duration: Double?

    @Flag(name: .customLong("no-view"), help: "Do not draw the screen (with --trace, for unattended runs).")
    var noView = false

    @Option(name: .customLong("input"), help: ArgumentHelp(
        "Where switches come from (repeatable): auto (the terminal keyboard and the devices a switch profile fits, with hotplug; a keyboard with letter keys only with a profile of its own: the terminal already reads it and a grab would take it away; see /usr/share/doc/switchscan/switch-profiles.md.gz, Devices/switches/README.md in the source tree), terminal, evdev:auto (every device a profile fits, no terminal), evdev:PATH, evemu:FILE (a recording), raw:PATH (struct input_event records, e.g. a FIFO). Default: auto.",
        valueName: "source"), completion: Completions.inputs)
    var inputs: [String] = []

    @Option(name: .customLong("profile"), help: ArgumentHelp(
        "The switch profile for devices, recordings and raw streams (a file, or a profile's id), instead of the best match.",
        valueName: "file"), completion: Completions.profiles)
    var profile: String?

    @Flag(help: "Replay evemu recordings at once, their events dated as recorded.")
    var fast = false

    @Option(help: ArgumentHelp(
        "Where the braille line goes: auto (a braille display through BRLTTY at BrlAPI's default host, BRLAPI_HOST or :0, when one answers; and the terminal view), brlapi[:HOST] (a display through BRLTTY at HOST, e.g. :1, waited for and reconnected while BRLTTY is away; and the terminal view), terminal (the terminal view only), none.",
        valueName: "output"), completion: Completions.brailleOutputs)
    var braille: String = "auto"

    @Option(name: .customLong("braille-auth"), help: ArgumentHelp(
        "BrlAPI authentication for the braille display: none, keyfile:PATH, polkit… Default: BRLAPI_AUTH, else BrlAPI's key file.",
        valueName: "auth"), completion: Completions.brailleAuth)
    var brailleAuth: String?

    @Option(help: ArgumentHelp(
        "Speech through speech-dispatcher, saying what the braille line shows, in the element's language: auto (speech-dispatcher at its default address, SPEECHD_ADDRESS or the user's socket, when it answers), unix_socket:PATH or inet_socket:HOST:PORT (speech-dispatcher there, tried again while it is away), none. With speech, auto scanning's steps last until their speech has ended, and a press acts only on an item whose speech has begun. Default: none.",
        valueName: "output"), completion: Completions.speechOutputs)
    var speech: String = "none"

    @Option(name: .customLong("speech-rate"), help: ArgumentHelp("The speaking rate, -100 (slowest) to 100 (fastest); 0 is speech-dispatcher's default.", valueName: "rate"))
    var speechRate: Int?

    @Option(name: .customLong("speech-volume"), help: ArgumentHelp("The speech volume, -100 to 100.", valueName: "volume"))
    var speechVolume: Int?

    @Option(name: .customLong("speech-voice"), help: ArgumentHelp(
        "The voice: a kind (male1, male2, male3, female1, female2, female3, child_male, child_female), which the synthesizer matches in each language, or a synthesis voice's name (spd-say -L lists them).",
        valueName: "voice"), completion: Completions.speechVoices)
    var speechVoice: String?

    func validate() throws {
        if atspi == (scene != nil) { throw ValidationError("give a scene file, or --atspi (not both)") }
        if !atspi, app != nil || window != nil || noOverlay { throw ValidationError("--app, --window and --no-overlay go with --atspi") }
        // A number from the command line is outside input too: NaN, infinity or a negative time
        // would never end the run (or end it at once); a year is plenty.
        if let duration, !(duration > 0 && duration <= 31_536_000) {
            throw ValidationError("--duration takes a number of seconds above 0 and at most 31536000 (a year); found \(duration)")
        }
        for (name, value) in [("--speech-rate", speechRate), ("--speech-volume", speechVolume)] {
            if let value, !SpeechOutput.scale.contains(value) {
                throw ValidationError("\(name) takes a whole number from -100 to 100; found \(value)")
            }
        }
        if let speechVoice, speechVoice.isEmpty || speechVoice.contains(where: { $0.isNewline || $0 == "\0" }) {
            throw ValidationError("--speech-voice takes a voice's name on one line; found \"\(speechVoice)\"")
        }
        do {
            _ = try SpeechOutputs.Spec(parsing: speech)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() throws {
        let scene: Scene
        var live: LiveApplication?
        if atspi {
            do {
                live = try LiveApplication(target: LiveApplication.Target(application: app, window: window))
            } catch {
                throw CommandFailure("switchscan run: \(error) (is the accessibility bus running? see man switchscan-run and /usr/share/doc/switchscan/docs/live-applications.md.gz, docs/live-applications.md in the source tree)")
            }
            scene = Scene(title: live!.title, size: live!.size, language: live!.language)
        } else {
            switch SceneFiles.load(self.scene ?? "") {
            case .success(let loaded): scene = loaded
            case .failure(let error):
                for problem in error.problems { printError(problem.description) }
                throw ExitCode.unloadable
            }
        }
        let settingsSetup = try RunSettings.load(file: settingsFile, overrides: settingOverrides, command: "switchscan run")
        // The trace is appended to (it may be a device on purpose), but never to a file the run reads.
        if let trace, let read = SafeFileWriter.input(at: trace, among: [self.scene, settingsFile].compactMap { $0 }) {
            throw CommandFailure("switchscan run: --trace \(trace): it is the file this run reads\(read == trace ? "" : " (\(read))"); nothing was written (write the trace to another file)")
        }
        let settings = settingsSetup.settings
        let brailleSpec: BrailleOutputs.Spec
        do {
            brailleSpec = try BrailleOutputs.Spec(parsing: braille)
        } catch {
            throw ValidationError("\(error)")
        }
        let specs: [InputSources.Spec]
        do {
            specs = try self.inputs.map { text throws(InputSources.InputSpecError) in try InputSources.Spec(parsing: text) }
        } catch {
            throw ValidationError(error.description)
        }
        let inputs: InputSources.Made
        do {
            inputs = try InputSources.build(
                specs, profile: profile, profileDirectories: SwitchProfileFiles.directories(), fast: fast)
        } catch {
            switch error.kind {
            case .usage:
                throw ValidationError(error.description)
            case .unloadable:
                for problem in error.problems { printError(problem) }
                throw CommandFailure("switchscan run: \(error.description)", status: .unloadable)
            }
        }
        // Said before the screen is drawn; each is in the trace and the status line as well.
        for problem in inputs.problems { printError("switchscan run: \(problem)") }
        // The display (if any) connects in the background; the run never waits for BRLTTY.
        // The reader's braille code (brailleCode), with each element's language's table; read
        // at the start (a settings file changing it applies at the next start).
        var tables = BrailleTableChoice()
        tables.code = settings.brailleCode
        // The reader's own tables (brailleTables), each checked by liblouis first: one it cannot
        // load is said, and that language keeps the table brailleCode gives it.
        for (language, table) in settings.brailleTables.sorted(by: { $0.key < $1.key }) {
            do {
                try Louis.checkTable(table)
                tables.chosen[language] = table
            } catch {
                printError("switchscan run: brailleTables: \(language)=\(table): \(error); \(language) keeps \(tables.table(for: language))")
            }
        }
        let brailleOutputs = BrailleOutputs.make(
            brailleSpec, auth: brailleAuth, profilesDirectories: BrailleOutputs.profileDirectories(),
            tables: tables, cursor: settings.brailleCursor)
        let brailleCells: ((String, String?) -> String?)? =
            brailleOutputs.terminalCells ? { [tables] in BrailleCells.translate($0, language: $1, tables: tables) } : nil
        var options = LiveRun.Options(
            scene: scene, settings: settings, terminalInput: inputs.terminal, terminalView: !noView,
            tracePath: trace, duration: duration, brailleCells: brailleCells,
            sources: inputs.sources + brailleOutputs.sources + (live.map { [$0] } ?? []), outputs: brailleOutputs.outputs)
        options.content = live
        if let live {
            options.highlightShown = { [unowned live] in live.highlightShown($0) }
            options.switchPressed = { [unowned live] in live.switchPressed() }
            live.programUses = ProgramUses.defaultPath(environment: ProcessInfo.processInfo.environment).map(ProgramUses.init)
        }
        // Speech connects once the run has started (libspeechd's thread must not take the
        // signals the run handles), and is tried again while speech-dispatcher is away.
        let speechVoice = SpeechOutput.Voice(rate: speechRate, volume: speechVolume, voice: self.speechVoice)
        if let spec = try? SpeechOutputs.Spec(parsing: speech), let speech = SpeechOutput(spec, voice: speechVoice) {
            options.outputs.append(speech)
            options.sources.append(speech)
        }
        // Learning what the user selects (learnSelections): per screen of this scene file, named
        // by its absolute path, in the state folder; scenes only (a live window's items have no
        // stable ids across runs).
        if live == nil, let given = self.scene,
           let store = SelectionStore.defaultPath(environment: ProcessInfo.processInfo.environment) {
            options.selectionStore = SelectionStore(path: store)
            options.selectionScope = selectionScope(of: scene, given: given)
        }
        // The highlight on the screen, for a sighted switch user: X11 only, and not asked away.
        var startupStatus = settingsSetup.startupStatus
        // What was printed on standard error already (the loop does not write it again there).
        var saidBeforeStart = Set(inputs.problems + settingsSetup.startupStatus)
        if let live, !noOverlay {
            if let reason = HighlightOverlay.unavailableReason(environment: ProcessInfo.processInfo.environment) {
                startupStatus.append(reason)
            } else {
                do {
                    let overlay = try HighlightOverlay()
                    overlay.placement = { [unowned live] in live.screenRect(of: $0) }
                    options.outputs.insert(overlay, at: 0)
                    options.sources.append(overlay)
                } catch {
                    let said = "the highlight is not drawn on the screen: \(error)"
                    printError("switchscan run: \(said)")
                    startupStatus.append(said)
                    saidBeforeStart.insert(said)
                }
            }
        }
        options.settingsWatcher = settingsSetup.watch()
        options.startupStatus = startupStatus
        let statusMailbox = StatusMailbox()
        options.statusMailbox = statusMailbox
        options.keyboard = RunKeyboard.offer(language: scene.language, chosen: settings.keyboardLayout, said: &saidBeforeStart,
                                             statuses: statusMailbox)
        options.saidBeforeStart = saidBeforeStart
        let ending: LiveRun.Ending
        do {
            ending = try LiveRun(options).run()
        } catch {
            throw CommandFailure("switchscan run: \(error)")
        }
        switch ending {
        case .quit, .endOfInput, .durationElapsed: return
        case .inputsFailed(let names):
            printError("switchscan run: every switch input failed (\(names.joined(separator: ", "))); nothing can operate the scene")
            throw ExitCode(1)
        case .signal(let signal):
            // The terminal is restored; exit as the shell expects after that signal.
            throw ExitCode(128 + signal)
        }
    }
}

/// Braille cells for the terminal view: the line through liblouis with the table chosen for the
/// element's language (UEB for English, French, mainland Chinese, …).
enum BrailleCells {
    static func translate(_ text: String, language: String?, tables: BrailleTableChoice = BrailleTableChoice()) -> String? {
        guard !text.isEmpty else { return "" }
        return try? Louis.translate(text, table: tables.table(for: language)).cells
    }
}

/// The settings of a run: the defaults (scenes set none for a run; their tests set their own),
/// then the settings file, then `--set`.
struct RunSettings {
    var settings: ScanSettings
    /// The file in effect, nil with `--settings none`.
    var path: String?
    /// Its text when the run started (nil: no file).
    var text: String?
    var overrides: [(name: String, value: StateValue)]
    /// A default settings file with errors: said as the run starts (it runs with the defaults).
    var startupStatus: [String] = []

    /// `file`: `--settings` (nil: the configuration folder's settings.yaml when present; none:
    /// no file). A file given with --settings must exist and be right; the default one, when
    /// wrong, is reported and the run goes on with the defaults (a switch user is not left
    /// without a scanner by a typo), watching for it to be corrected.
    static func load(file: String?, overrides overrideTexts: [String], command: String) throws -> RunSettings {
        let overrides = try SettingOverrides.parse(overrideTexts)
        let base = ScanSettings()
        var setup = RunSettings(settings: base, path: nil, text: nil, overrides: overrides)
        for (name, value) in overrides { try? setup.settings.set(name, value) }
        if file == "none" { return setup }
        let path = file ?? ConfigFiles.settingsPath
        setup.path = path
        let text = try ConfigFiles.readSettingsText(path)
        if file != nil, text == nil { throw CommandFailure("--settings \(path): no such file", status: .unloadable) }
        setup.text = text
        switch SettingsWatcher.settings(text: text, file: path, base: base, overrides: overrides) {
        case .success(let (settings, _)):
            setup.settings = settings
        case .failure(let error):
            for problem in error.problems { printError(problem.description) }
            if file != nil { throw ExitCode.unloadable }
            let said = "settings: \(error.problems.first.map(\.description) ?? path); running with the defaults until the file is corrected"
            printError("\(command): \(said)")
            setup.startupStatus.append(said)
        }
        return setup
    }

    /// The watcher of the file (also of a file that does not exist yet).
    func watch() -> SettingsWatcher? {
        path.map { SettingsWatcher(path: $0, initialText: text, base: ScanSettings(), overrides: overrides) }
    }
}

/// The name a scene file's selections are kept under: the scene file's absolute path (a tests
/// file names its scene, so both share the counts). `run` learns under it, `cost --learned` reads.
func selectionScope(of scene: Scene, given: String) -> String {
    let path = scene.file.isEmpty ? given : scene.file
    return URL(fileURLWithPath: path).standardizedFileURL.path
}
