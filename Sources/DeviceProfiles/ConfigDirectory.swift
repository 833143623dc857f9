/// switchscan's configuration folder, from the environment alone: `$XDG_CONFIG_HOME/switchscan`
/// when XDG_CONFIG_HOME is an absolute path (the XDG Base Directory rule: a relative one is
/// ignored), else `$HOME/.config/switchscan`; nil when neither is usable. It holds
/// `settings.yaml`, `switches/*.yaml` (switch profiles) and `braille/*.yaml` (braille display
/// profiles). Pure: it reads no file; the caller passes its process's environment.
public func configDirectory(environment: [String: String]) -> String? {
    xdgPath(variable: "XDG_CONFIG_HOME", homeFallback: ".config", tail: "switchscan", environment: environment)
}

/// `$VARIABLE/tail` when the variable is an absolute path (the XDG Base Directory rule: a
/// relative one is ignored), else `$HOME/homeFallback/tail`; nil when neither is usable. Pure.
public func xdgPath(variable: String, homeFallback: String, tail: String, environment: [String: String]) -> String? {
    func joined(_ base: String, _ tail: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + tail
    }
    if let base = environment[variable], base.hasPrefix("/") {
        return joined(base, tail)
    }
    if let home = environment["HOME"], home.hasPrefix("/") {
        return joined(home, homeFallback + "/" + tail)
    }
    return nil
}
