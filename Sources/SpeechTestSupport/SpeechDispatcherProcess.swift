import BrailleTestSupport
import Foundation
import Platform

/// speech-dispatcher started for a test on a private socket, with an output module whose
/// speech the test reads back, and stopped by the process id it was started with.
///
/// Everything it uses is in `directory` (the test's own folder): its configuration
/// (`conf/speechd.conf`, the only module `recorder`), its socket, its pid file and its log. The
/// machine's configuration and any speech-dispatcher of the user are left alone, and nothing is
/// spawned on demand (`-s` stays in the foreground, `-t 0` never ends by itself).
///
/// The `recorder` module is speech-dispatcher's generic module running a shell line per
/// message: it appends `start <uptime> <language> <voice> <text>` to `spokenPath`, "speaks" for
/// `secondsPerCharacter` × the text's length (at least `minimumSpeakingSeconds`) by sleeping,
/// then appends `end <uptime>`. A message cancelled while it is spoken gets no `end` line (the
/// module kills the line's process). Audio goes to ALSA's `null` device.
///
/// Like `BRLTTYProcess`, a watchdog (`/bin/sh`) whose standard input is a pipe only this process
/// holds stops speech-dispatcher when the test runner dies in any way.
public final class SpeechDispatcherProcess: @unchecked Sendable {
    public let directory: String
    public let socketPath: String
    /// speech-dispatcher's address for clients: `unix_socket:<socketPath>`.
    public var address: String { "unix_socket:\(socketPath)" }
    /// What the recorder module said, one line per start and end.
    public let spokenPath: String
    /// speech-dispatcher's standard output and error.
    public let outputPath: String
    public let secondsPerCharacter: Double
    public let minimumSpeakingSeconds: Double

    private let lock = NSLock()
    private var pid: pid_t?
    private var watchdog: Watchdog?

    /// The voices the recorder module offers, by language: what `$VOICE` is for each.
    public static let voices = ["en": "recorder-english", "fr": "recorder-french", "de": "recorder-german"]

    /// Writes the configuration into `directory` (made if needed); does not start anything.
    public init(directory: String, secondsPerCharacter: Double = 0.02, minimumSpeakingSeconds: Double = 0.2) throws {
        self.directory = directory
        self.socketPath = directory + "/speechd.sock"
        self.spokenPath = directory + "/spoken.txt"
        self.outputPath = directory + "/speech-dispatcher.out"
        self.secondsPerCharacter = secondsPerCharacter
        self.minimumSpeakingSeconds = minimumSpeakingSeconds
        let manager = FileManager.default
        for folder in ["conf/modules", "log"] {
            try manager.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: true)
        }
        try """
            LogLevel 3
            Timeout 0
            AudioOutputMethod "alsa"
            AudioALSADevice "null"
            AddModule "recorder" "sd_generic" "recorder.conf"
            DefaultModule "recorder"
            DefaultLanguage "en"
            DefaultVoiceType "MALE1"

            """.write(toFile: directory + "/conf/speechd.conf", atomically: true, encoding: .utf8)
        // The generic module puts the text in for the first $DATA only, with single quotes made
        // safe for a single-quoted shell word; it drops `${#…}`, so awk measures the text.
        let line = "t='$DATA'; read up _ < /proc/uptime; printf 'start %s %s %s %s\\\\n' \\\"$up\\\" \\\"$LANGUAGE\\\" \\\"$VOICE\\\" \\\"$t\\\" >> \(spokenPath); "
            + "sleep $(awk -v t=\\\"$t\\\" 'BEGIN { s = length(t) * \(secondsPerCharacter); if (s < \(minimumSpeakingSeconds)) s = \(minimumSpeakingSeconds); print s }'); "
            + "read up _ < /proc/uptime; printf 'end %s\\\\n' \\\"$up\\\" >> \(spokenPath)"
        // One message, one run of the line: the module would cut a text at each sentence's end
        // (GenericDelimiters "."); a tab never occurs in a braille line (it is made one line).
        var module = "GenericExecuteSynth \"\(line)\"\nGenericMaxChunkLength 100000\nGenericDelimiters \"\t\"\n"
        for (language, voice) in Self.voices.sorted(by: { $0.key < $1.key }) {
            module += "AddVoice \"\(language)\" \"MALE1\" \"\(voice)\"\n"
            module += "GenericLanguage \"\(language)\" \"\(language)\" \"utf-8\"\n"
        }
        try module.write(toFile: directory + "/conf/modules/recorder.conf", atomically: true, encoding: .utf8)
    }

    deinit { stop() }

    public var isRunning: Bool { lock.withLock { pid != nil } }

    /// Starts speech-dispatcher and waits (up to `timeout` s) until its socket takes a connection.
    public func start(timeout: Double = 10) throws {
        try lock.withLock {
            guard pid == nil else { return }
            let executable = "/usr/bin/speech-dispatcher"
            let words = [executable, "-s", "-t", "0", "-c", "unix_socket", "-S", socketPath, "-C", directory + "/conf",
                         "-m", "/usr/lib/speech-dispatcher-modules", "-L", directory + "/log", "-P", directory + "/speechd.pid"]
            try? FileSystem.remove(socketPath)
            let started = try ChildProcess.spawn(
                executable, arguments: words, standardInput: .reading("/dev/null"),
                standardOutput: .writing(outputPath, append: true), standardError: .standardOutput)
            pid = started
            do {
                try startWatchdog(of: started)
            } catch {
                try? ProcessSignal.send(SIGKILL, to: started)
                ChildProcess.wait(started)
                pid = nil
                throw error
            }
        }
        let deadline = monotonicNow() + timeout
        while !Self.socketAnswers(socketPath) {
            if let running = lock.withLock({ pid }), ChildProcess.state(of: running, blocking: false) != .running {
                lock.withLock { pid = nil; endWatchdog() }
                throw BrailleTestSupportError("speech-dispatcher", detail: "exited while starting; its output:\n\(output)")
            }
            if monotonicNow() > deadline {
                stop()
                throw BrailleTestSupportError("speech-dispatcher", detail: "its socket \(socketPath) did not answer within \(timeout) s; its output:\n\(output)")
            }
            sleepSeconds(0.05)
        }
    }

    /// SIGTERM to the process started, SIGKILL after `timeout` s; waits for it.
    public func stop(timeout: Double = 3) {
        lock.withLock {
            guard let running = pid else { return }
            pid = nil
            endWatchdog()
            try? ProcessSignal.send(SIGTERM, to: running)
            let deadline = monotonicNow() + timeout
            while monotonicNow() < deadline {
                if ChildProcess.state(of: running, blocking: false) != .running { return }
                sleepSeconds(0.02)
            }
            try? ProcessSignal.send(SIGKILL, to: running)
            ChildProcess.wait(running)
        }
    }

    /// Closes this process's end of the watchdog's pipe, as the kernel does when the runner
    /// dies, and forgets speech-dispatcher (the watchdog is now the one to stop it). For the
    /// watchdog's own test; returns the PIDs of speech-dispatcher and the watchdog.
    public func abandonToWatchdog() -> (server: pid_t, watchdog: pid_t)? {
        lock.withLock {
            guard let running = pid, let watcher = watchdog else { return nil }
            pid = nil
            watchdog = nil
            watcher.release()
            return (running, watcher.pid)
        }
    }

    /// speech-dispatcher's output so far.
    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// One utterance the recorder module began: when (uptime seconds), in which language and
    /// voice, what text, and whether it ran to its end (false: cancelled while spoken, or still
    /// speaking).
    public struct Utterance: Hashable, Sendable {
        public var began: Double
        public var language: String
        public var voice: String
        public var text: String
        public var finished: Bool
    }

    /// What the recorder module has said so far, in order.
    public func spoken() -> [Utterance] {
        let text = (try? String(contentsOfFile: spokenPath, encoding: .utf8)) ?? ""
        var utterances = [Utterance]()
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
            if words.first == "start", words.count == 5, let time = Double(words[1]) {
                utterances.append(Utterance(began: time, language: words[2], voice: words[3], text: words[4], finished: false))
            } else if words.first == "end", !utterances.isEmpty {
                utterances[utterances.count - 1].finished = true
            }
        }
        return utterances
    }

    /// Whether something accepts a connection on the unix socket at `path`.
    public static func socketAnswers(_ path: String) -> Bool {
        guard let descriptor = try? LocalSocket.connect(path) else { return false }
        FileIO.close(descriptor)
        return true
    }

    /// The watchdog's script: `$1` speech-dispatcher's pid.
    static let watchdogScript = """
        read -r _
        alive() { [ -r "/proc/$1/cmdline" ] && tr '\\0' ' ' < "/proc/$1/cmdline" | grep -q speech-dispatcher; }
        if alive "$1"; then
            kill -TERM "$1" 2>/dev/null
            n=0
            while alive "$1" && [ "$n" -lt 30 ]; do sleep 0.1; n=$((n + 1)); done
            alive "$1" && kill -KILL "$1" 2>/dev/null
        fi
        """

    /// Called with the lock held.
    private func startWatchdog(of target: pid_t) throws {
        watchdog = try Watchdog.start(script: Self.watchdogScript, name: "speech-dispatcher-watchdog",
                                      arguments: [String(target)], log: directory + "/watchdog.out")
    }

    /// Called with the lock held.
    private func endWatchdog() {
        watchdog?.cancel()
        watchdog = nil
    }
}
