// swift-tools-version:6.1
// SwitchScan: the iOS accessibility model and Switch Control item-mode scanning on Linux.
//
// Dependencies run one way: AccessibilityModel ← Scenes ← (Scanning ← Runtime) ← switchscan.
// Pure modules (AccessibilityModel, Scenes) import no C module and do no I/O; libc is called only
// in Platform.
import PackageDescription

let package = Package(
    name: "SwitchScan",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "switchscan", targets: ["switchscan"]),
        .library(name: "AccessibilityModel", targets: ["AccessibilityModel"]),
        .library(name: "Scenes", targets: ["Scenes"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Pure: the element model and its rules (visibility, modal, reading order, grouping, hit testing).
        .target(name: "AccessibilityModel"),
        // Pure: the one typed reader of YAML and JSON documents (positions, UTF-8 checked with
        // line and column, duplicate keys, node budgets from the document's size) that scenes,
        // settings files and device profiles share.
        .target(name: "Documents", dependencies: ["YAMLEvents"]),
        // Pure: the scene file contract → model + behaviour (state, bindings, effects), the guideline
        // audit, and the scanning settings with their one table (a scripted test's `settings:`,
        // settings files, `--set`, help and manual page all read it).
        .target(name: "Scenes", dependencies: ["AccessibilityModel", "SwitchInput", "Documents", "BrailleFormatting"]),
        // Pure: accessibility dumps of real iOS and Android screens (bytes already read) → scene text,
        // parsed by Foundation's XMLParser (libxml2 on Linux).
        .target(name: "DumpImport", dependencies: ["Scenes", "Documents"]),
        // Pure: switch edges → switch actions (debounce, hold duration, ignore repeat, long press).
        .target(name: "SwitchInput"),
        // Pure: the line a braille display shows for an item, a group, a menu entry, a message.
        .target(name: "BrailleFormatting", dependencies: ["AccessibilityModel"]),
        // Pure: the item-mode scanning engine (events in, actions out, timers as actions), settings
        // files, automatic grouping, scan cost, and the session that joins engine and scene;
        // scripted tests (their `key:` steps go through a switch profile, as a device's events do).
        .target(name: "Scanning", dependencies: [
            "AccessibilityModel", "Scenes", "SwitchInput", "BrailleFormatting", "DeviceProfiles",
        ]),
        // Pure: what the outputs show that needs no device: the terminal view's frame, the terminal
        // keys' decoding and wording, the trace's JSON lines.
        .target(name: "Presentation", dependencies: ["AccessibilityModel", "Scanning", "SwitchInput"]),
        // C libraries, each imported once through a module map and a small shim, and wrapped once
        // in a thin typed Swift module (no C type past it; errors name the C call).
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CBrlAPI", providers: [.apt(["libbrlapi-dev"])]),
        .systemLibrary(name: "CLouis", pkgConfig: "liblouis", providers: [.apt(["liblouis-dev"])]),
        // libyaml's event stream, read directly into `DocumentNode`s (no intermediate tree).
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // Linux interfaces Glibc does not import (signalfd, inotify), for the runtime.
        .systemLibrary(name: "CLinux"),
        // speech-dispatcher's client library (its header includes no glib: no pkg-config flags).
        .systemLibrary(name: "CSpeechd", providers: [.apt(["libspeechd-dev"])]),
        // The platform layer: every libc call of the program wrapped once, in swift-system's
        // manner (typed values, EINTR retried there, each failure a `SystemCallError` naming the
        // C call); every other module reaches the operating system through it.
        .target(name: "Platform", dependencies: ["CLinux"]),
        .target(name: "Evdev", dependencies: ["CEvdev", "Platform"]),
        .target(name: "BrlAPI", dependencies: ["CBrlAPI", "Platform"]),
        .target(name: "Louis", dependencies: ["CLouis"]),
        .target(name: "YAMLEvents", dependencies: ["CYAML"]),
        .target(name: "Speech", dependencies: ["CSpeechd"]),
        // Word prediction for the scanning keyboard: libpresage's C API.
        .systemLibrary(name: "CPresage", providers: [.apt(["libpresage-dev"])]),
        .target(name: "Presage", dependencies: ["CPresage"]),
        // Live applications: AT-SPI snapshots and their mapping to elements (pure), libatspi wrapped once.
        .target(name: "LiveTree", dependencies: ["AccessibilityModel"]),
        .systemLibrary(name: "CAtspi", pkgConfig: "atspi-2", providers: [.apt(["libatspi2.0-dev"])]),
        .target(name: "Atspi", dependencies: ["CAtspi", "LiveTree", "AccessibilityModel", "Platform"]),
        // Installed programs (their desktop entries) and starting them: GIO wrapped once (GLib
        // comes with libatspi).
        .systemLibrary(name: "CGio", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .target(name: "Desktop", dependencies: ["CGio", "LiveTree"]),
        // The highlight on an X11 screen: libxcb and its Shape extension wrapped once.
        .systemLibrary(name: "CXcb", pkgConfig: "xcb-shape", providers: [.apt(["libxcb1-dev", "libxcb-shape0-dev"])]),
        .target(name: "Xcb", dependencies: ["CXcb"]),
        // Pure: switch interface and braille display profiles (Devices/), evemu and raw decoding.
        .target(name: "DeviceProfiles", dependencies: ["SwitchInput", "Documents"]),
        // Pure: the run's decisions (deadlines, edges re-dated, job control, status pages, the end
        // of a run) and the braille display's link and backoff: value types fed events and the
        // time, returning actions, tested with a manual clock; `Runtime` carries the actions out; and
        // the braille display's key map (what each key read does) from its profile.
        .target(name: "RunControl", dependencies: ["Scanning", "SwitchInput", "BrailleFormatting", "DeviceProfiles"]),
        // The only module with file descriptors, threads, clocks and the event loop.
        .target(name: "Runtime", dependencies: [
            "AccessibilityModel", "Scenes", "Scanning", "SwitchInput", "BrailleFormatting",
            "DeviceProfiles", "Documents", "Platform", "Evdev", "BrlAPI", "Louis", "LiveTree", "Atspi", "Xcb", "Desktop", "Speech", "RunControl", "Presentation", "Presage",
        ]),
        // For tests only: a Baum braille display emulator on a pseudo-terminal, and BRLTTY started
        // and stopped by PID, shared by the BrlAPI and runtime tests.
        .target(name: "BrailleTestSupport", dependencies: ["Platform"], path: "Sources/BrailleTestSupport"),
        // The live application tests' desktop (Tests/LiveApps/live-session.sh): Xvfb, a private D-Bus
        // session, the AT-SPI bus and the demo applications, stopped by PID; the real Orca beside them.
        .target(name: "LiveTestSupport", dependencies: ["Runtime", "Platform", "BrailleFormatting", "BrailleTestSupport", "SpeechTestSupport"], path: "Sources/LiveTestSupport"),
        // For tests only: speech-dispatcher started and stopped by PID on a private socket, with an
        // output module that writes what it says, and when, to a file.
        .target(name: "SpeechTestSupport", dependencies: ["BrailleTestSupport", "Platform"], path: "Sources/SpeechTestSupport"),
        // For tests only: whether the run is `scripts/test --fast` (SWITCHSCAN_FAST_TESTS=1), which
        // skips the suites needing BRLTTY, Xvfb or a package build.
        .target(name: "TestTier", path: "Sources/TestTier"),
        // The CLI: thin; reads files and prints.
        .executableTarget(name: "switchscan", dependencies: [
            "AccessibilityModel", "Scenes", "Scanning", "Runtime", "DeviceProfiles", "Evdev", "Louis", "BrailleFormatting",
            "DumpImport", "Platform", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Benchmarks print figures; they are never run as tests.
        .executableTarget(name: "switchscan-bench", dependencies: [
            "AccessibilityModel", "Scenes", "Scanning", "SwitchInput", "Runtime", "BrailleFormatting", "BrlAPI", "Louis",
            "BrailleTestSupport", "DeviceProfiles", "DumpImport", "LiveTestSupport", "Presage", "Platform",
        ], path: "Benchmarks/switchscan-bench"),
        // The mutation fuzzer over every file kind and the raw stream (scripts/test runs it; crashes
        // found are kept in Tests/Fuzz/regressions and replayed).
        .executableTarget(name: "switchscan-fuzz", dependencies: [
            "AccessibilityModel", "Documents", "Scenes", "Scanning", "SwitchInput", "DeviceProfiles", "Runtime",
            "DumpImport", "Presentation", "Platform",
        ], path: "Tests/Fuzz/switchscan-fuzz"),

        .testTarget(name: "AccessibilityModelTests", dependencies: ["AccessibilityModel"]),
        .testTarget(name: "DocumentsTests", dependencies: ["Documents"]),
        .testTarget(name: "ScenesTests", dependencies: ["Scenes", "AccessibilityModel"]),
        .testTarget(name: "DumpImportTests", dependencies: ["DumpImport", "Scenes", "AccessibilityModel"]),
        .testTarget(name: "SwitchInputTests", dependencies: ["SwitchInput"]),
        .testTarget(name: "BrailleFormattingTests", dependencies: ["BrailleFormatting", "AccessibilityModel"]),
        .testTarget(name: "ScanningTests", dependencies: ["Scanning", "Scenes", "AccessibilityModel", "SwitchInput", "DeviceProfiles", "BrailleFormatting"]),
        .testTarget(name: "EvdevTests", dependencies: ["Evdev", "Platform"]),
        .testTarget(name: "BrlAPITests", dependencies: ["BrlAPI", "BrailleTestSupport", "TestTier", "Platform"]),
        .testTarget(name: "LouisTests", dependencies: ["Louis"]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "SpeechTestSupport", "TestTier", "Platform"]),
        .testTarget(name: "PresageTests", dependencies: ["Presage"]),
        .testTarget(name: "LiveTreeTests", dependencies: ["LiveTree", "AccessibilityModel", "BrailleFormatting"]),
        // Real GTK 4, GTK 3 and Qt 5 applications on Xvfb with a private D-Bus session and the AT-SPI bus.
        .testTarget(name: "LiveApplicationTests", dependencies: [
            "Runtime", "Scanning", "SwitchInput", "Xcb", "AccessibilityModel", "Atspi", "LiveTestSupport", "TestTier", "switchscan",
            "DeviceProfiles", "Platform",
        ]),
        .testTarget(name: "RunControlTests", dependencies: ["RunControl", "Scanning", "Scenes", "SwitchInput", "BrailleFormatting", "DeviceProfiles"]),
        .testTarget(name: "DeviceProfilesTests", dependencies: ["DeviceProfiles", "SwitchInput"]),
        .testTarget(name: "RuntimeTests", dependencies: ["Runtime", "DeviceProfiles", "Scanning", "Scenes", "SwitchInput", "BrailleTestSupport", "TestTier", "LiveTree", "AccessibilityModel", "Presentation", "Platform"]),
        .testTarget(name: "PresentationTests", dependencies: ["Presentation", "Scanning", "Scenes", "AccessibilityModel", "SwitchInput"]),
        // Boots a stock Debian kernel under QEMU with a USB keyboard device model and drives it over QMP.
        .testTarget(name: "RealKernelTests", dependencies: ["switchscan", "Platform"]),
        .testTarget(name: "SwitchScanCLITests", dependencies: ["switchscan", "Scenes", "BrailleTestSupport", "LiveTestSupport", "SpeechTestSupport", "TestTier", "Platform"]),
    ]
)
