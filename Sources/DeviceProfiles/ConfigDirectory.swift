/// switchscan's configuration folder, from the environment alone: `$XDG_CONFIG_HOME/switchscan`
/// when XDG_CONFIG_HOME is an absolute path (the XDG Base Directory rule: a relative one is
/// ignored), else `$HOME/.config/switchscan`; nil when neither is usable. It holds
/// `settings.yaml`, `switches/*.yaml` (switch profiles) and `braille/*.yaml` (braille display
/// profiles). Pure: it reads no file; the caller passes its process's environment.
public func configDirectory(environment: [String: String]) -> String? {
    func joined(_ base: String, _ tail: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + tail
    }
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
        return joined(config, "switchscan")
    }
    if let home = environment["HOME"], home.hasPrefix("/") {
        return joined(home, ".config/switchscan")
    }
    return nil
}
