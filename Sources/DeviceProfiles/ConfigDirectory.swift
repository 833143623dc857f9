/// SwitchScan's folder in the user's configuration directory, after the XDG Base Directory
/// specification: `$XDG_CONFIG_HOME/switchscan` when that variable is an absolute path (a
/// relative or empty one is ignored, as the specification says), else
/// `$HOME/.config/switchscan`. Pure: the caller passes the environment (with `HOME` filled in
/// from the password database when the process has none); without `HOME` the folder is
/// `.config/switchscan`, relative to the current folder.
///
/// User files live in subfolders: `braille/*.yaml` (display profiles), `switches/*.yaml`.
public func configDirectory(environment: [String: String]) -> String {
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
        return joinPath(config, "switchscan")
    }
    guard let home = environment["HOME"], !home.isEmpty else { return ".config/switchscan" }
    return joinPath(home, ".config/switchscan")
}

/// `folder/name` with exactly one `/` between them.
func joinPath(_ folder: String, _ name: String) -> String {
    var base = folder
    while base.count > 1, base.hasSuffix("/") { base.removeLast() }
    return base == "/" ? "/" + name : base + "/" + name
}
