import Foundation
import Testing

/// Issue 24: what bash, zsh and fish complete, with the completion files scripts/package installs
/// (written by scripts/completions from the built program), each shell run as a subprocess on a
/// command line as a user types it, in a folder of scenes, dumps and other files.
@Suite("Shell completion", .serialized)
struct CompletionTests {
    enum Shell: String, CaseIterable, CustomStringConvertible {
        case bash, zsh, fish
        var description: String { rawValue }
    }

    /// A command line up to the cursor, and words the completion must offer (`NAME=` and `kind:`
    /// words as they then stand in the line) and must not offer.
    struct Case: CustomStringConvertible {
        var line: String
        var offers: [String]
        var not: [String] = []
        var description: String { line }
    }

    static let cases: [Case] = [
        Case(line: "switchscan run bo", offers: ["bowler.yaml", "bowler.tests.yaml"], not: ["bowling.txt"]),
        Case(line: "switchscan test bowler.t", offers: ["bowler.tests.yaml"]),
        Case(line: "switchscan validate sc", offers: ["scenes"]),
        Case(line: "switchscan import ", offers: ["home.xml"], not: ["bowler.yaml", "bowling.txt"]),
        Case(line: "switchscan run x.yaml --braille ", offers: ["auto", "brlapi:", "terminal", "none"]),
        Case(line: "switchscan run x.yaml --braille-auth ", offers: ["none", "keyfile:", "polkit"]),
        Case(line: "switchscan run x.yaml --speech ", offers: ["auto", "none", "unix_socket:", "inet_socket:"]),
        Case(line: "switchscan run x.yaml --set autoS", offers: ["autoScanningTime="]),
        Case(line: "switchscan run x.yaml --set tapBehavior=al", offers: ["tapBehavior=alwaysTap"], not: ["tapBehavior=autoTap"]),
        // A number: its default, and the ends of its range (its row in SettingTable: 1 to 100).
        Case(line: "switchscan run x.yaml --set loops=", offers: ["loops=4", "loops=1", "loops=100"]),
        Case(line: "switchscan cost x.yaml --set pauseOnFirstItem=o", offers: ["pauseOnFirstItem=off"]),
        Case(line: "switchscan run x.yaml --input ", offers: ["auto", "terminal", "evdev:", "evemu:", "raw:"]),
        Case(line: "switchscan run x.yaml --input evdev:a", offers: ["evdev:auto"]),
        Case(line: "switchscan run x.yaml --input evemu:pre", offers: ["evemu:presses.evemu"]),
        Case(line: "switchscan run x.yaml --input raw:sc", offers: ["raw:scenes/"]),
        Case(line: "switchscan run x.yaml --profile origin-t", offers: ["origin-tapio"]),
        Case(line: "switchscan test x.yaml --profile my-", offers: ["my-switches"]),
        Case(line: "switchscan settings set tapB", offers: ["tapBehavior"]),
        Case(line: "switchscan settings set tapBehavior ", offers: ["default", "autoTap", "alwaysTap"]),
        Case(line: "switchscan settings set brailleCursor s", offers: ["segment"]),
        Case(line: "switchscan settings get lo", offers: ["loops", "longPress"]),
    ]

    /// The drivers: each prints the words the shell would offer for the line in $LINE, one a line.
    static let bashDriver = #"""
        source "$COMPLETION"
        fn=$(complete -p switchscan | sed -n 's/.*-F \([^ ]*\).*/\1/p')
        # COMP_WORDS as bash makes them: split at blanks, then at the = and : of COMP_WORDBREAKS, each
        # such character a word of its own.
        COMP_LINE="$LINE"; COMP_POINT=${#COMP_LINE}
        read -r -a blank <<< "$COMP_LINE"
        [[ "$COMP_LINE" == *" " ]] && blank+=("")
        COMP_WORDS=()
        for w in "${blank[@]}"; do
            if [[ -z "$w" ]]; then COMP_WORDS+=(""); continue; fi
            while [[ "$w" =~ ^([^=:]*)([=:])(.*)$ ]]; do
                [[ -n "${BASH_REMATCH[1]}" ]] && COMP_WORDS+=("${BASH_REMATCH[1]}")
                COMP_WORDS+=("${BASH_REMATCH[2]}"); w="${BASH_REMATCH[3]}"
            done
            [[ -n "$w" ]] && COMP_WORDS+=("$w")
        done
        COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
        COMPREPLY=()
        "$fn" switchscan "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        # bash puts a reply in place of the typed word's part after its last = or :.
        typed="${blank[${#blank[@]} - 1]}"
        kept="${typed%"${typed##*[=:]}"}"
        for reply in "${COMPREPLY[@]}"; do printf '%s%s\n' "$kept" "$reply"; done
        """#

    static let zshDriver = #"""
        # An interactive zsh on a pseudo-terminal (zpty): compinit, the completion file on fpath,
        # compadd wrapped to print what it is given; then the line and a Tab typed.
        zmodload zsh/zpty
        zpty z zsh -f -i
        zpty -w z 'PROMPT="> "; RPROMPT=""'
        zpty -w z "fpath=(${(q)COMPLETION_FOLDER} \$fpath); autoload -Uz compinit; compinit -u -D"
        zpty -w z 'compadd() { local -a __hits; builtin compadd -O __hits "$@"; local h; for h in $__hits; do print -r -- "HI""T:$h"; done; builtin compadd "$@" }'
        zpty -w z 'print __RE""ADY__'
        local ready out
        zpty -r z ready '*__READY__*'
        # _main_complete runs comppostfuncs when the completion is over (and empties the list):
        # the line is cleared only then, so that no typeahead cuts the completion short.
        zpty -w z 'completion_over() { print -r -- "__OV""ER__" }; comppostfuncs=(completion_over)'
        zpty -n -w z "$LINE"$'\t'
        zpty -r z out '*__OVER__*'
        zpty -n -w z $'\C-u''print __E""ND__'$'\n'
        local rest
        zpty -r z rest '*__END__*'
        zpty -d z
        print -r -- "$out" | tr -d '\r' | grep -o 'HIT:.*' | cut -c5- | sort -u
        """#

    struct Setup {
        let folder: TemporaryFolder
        var work: URL { folder.url.appendingPathComponent("work") }
        var completions: URL { folder.url.appendingPathComponent("completions") }
        var environment: [String: String]
    }

    /// The completion files, `switchscan` on PATH (the built one), a home with a switch profile
    /// of its own, and a work folder with scenes, a tests file, a dump, a recording and others.
    static func setup() throws -> Setup {
        let folder = try TemporaryFolder()
        let bin = folder.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("switchscan"), withDestinationURL: try CLI.binary())
        let setup = Setup(folder: folder, environment: [
            "PATH": "\(bin.path):/usr/bin:/bin", "HOME": folder.url.appendingPathComponent("home").path,
            "XDG_CONFIG_HOME": folder.url.appendingPathComponent("home/.config").path, "XDG_DATA_DIRS": "/nonexistent",
            "TERM": "xterm", "LANG": "C.UTF-8",
        ])
        let written = try CLI.runProgram("/bin/bash", [CLI.packageRoot.appendingPathComponent("scripts/completions").path,
                                                       try CLI.binary().path, setup.completions.path])
        try #require(written.status == 0, "\(written)")
        try FileManager.default.createDirectory(at: setup.work.appendingPathComponent("scenes"), withIntermediateDirectories: true)
        for name in ["bowler.yaml", "bowler.tests.yaml", "bowling.txt", "home.xml", "presses.evemu"] {
            try folder.write("work/\(name)", "")
        }
        let profiles = folder.url.appendingPathComponent("home/.config/switchscan/switches")
        try FileManager.default.createDirectory(at: profiles, withIntermediateDirectories: true)
        try folder.write("home/.config/switchscan/switches/my-switches.yaml", "")
        return setup
    }

    static func offered(_ shell: Shell, _ line: String, _ setup: Setup) throws -> CLI.Result {
        var environment = setup.environment
        environment["LINE"] = line
        switch shell {
        case .bash:
            environment["COMPLETION"] = setup.completions.appendingPathComponent("switchscan").path
            return try CLI.runProgram("/bin/bash", ["-c", bashDriver], in: setup.work, environment: environment)
        case .zsh:
            environment["COMPLETION_FOLDER"] = setup.completions.path
            return try CLI.runProgram("/usr/bin/timeout", ["60", "/usr/bin/zsh", "-f", "-c", zshDriver], in: setup.work, environment: environment)
        case .fish:
            let file = setup.completions.appendingPathComponent("switchscan.fish").path
            let result = try CLI.runProgram("/usr/bin/fish", ["--no-config", "-c", "source '\(file)'; complete -C \"$LINE\""],
                                            in: setup.work, environment: environment)
            // `word<TAB>description`: the word.
            var words = result
            words.stdout = result.stdout.split(separator: "\n").map { $0.split(separator: "\t", maxSplits: 1).first.map(String.init) ?? "" }
                .joined(separator: "\n") + "\n"
            return words
        }
    }

    @Test(arguments: Shell.allCases)
    func completesFilesOptionValuesSettingsAndProfiles(_ shell: Shell) throws {
        let program = ["bash": "/bin/bash", "zsh": "/usr/bin/zsh", "fish": "/usr/bin/fish"][shell.rawValue]!
        try #require(FileManager.default.isExecutableFile(atPath: program), "\(program) is not installed (scripts/setup --tests installs it)")
        let setup = try Self.setup()
        for test in Self.cases {
            let result = try Self.offered(shell, test.line, setup)
            #expect(result.status == 0, "\(shell) '\(test.line)': \(result)")
            // A folder is offered as `scenes` by some shells and `scenes/` by others.
            let offered = result.stdout.split(separator: "\n").map(String.init)
            let words = Set(offered + offered.filter { $0.hasSuffix("/") }.map { String($0.dropLast()) })
            for word in test.offers {
                #expect(words.contains(word), "\(shell) '\(test.line)' does not offer '\(word)': \(words.sorted())")
            }
            for word in test.not {
                #expect(!words.contains(word), "\(shell) '\(test.line)' offers '\(word)': \(words.sorted())")
            }
        }
    }
}
