import Scenes

/// The scanning settings are defined beside their table in Scenes (the scene reader checks a
/// scripted test's `settings:` against it); code that scans names them through this module.
public typealias ScanSettings = Scenes.ScanSettings
