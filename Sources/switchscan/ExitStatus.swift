import ArgumentParser

/// The exit statuses every subcommand uses (README "Exit status" has the same table):
///
/// | status | meaning |
/// |--------|---------|
/// | 0      | done; nothing failed |
/// | 1      | the command's own finding: a scripted test failed, audit findings, validate found problems, or the work could not be done (a file could not be written, no switch pressed, every switch input failed) |
/// | 2      | an input named on the command line could not be read or loaded (a scene, tests file, settings file, dump; problems on standard error as file:line:column), or `--filter` matched no test |
/// | 64     | usage: an unknown option, a missing or malformed argument (ArgumentParser's ValidationError, `ExitCode.validationFailure`) |
/// | 128+N  | ended by signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP): `run`, `learn` waiting for presses and `snapshot` waiting for a window take the signal and exit so after restoring the terminal and devices; the other commands are ended by the signal itself (the shell reports the same status) |
extension ExitCode {
    /// 2: an input could not be read or loaded.
    static let unloadable = ExitCode(2)
}
