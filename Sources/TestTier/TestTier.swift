import Foundation

/// Which tests a run of the suite includes. `scripts/test` runs every test; `scripts/test --fast`,
/// for the inner loop, sets SWITCHSCAN_FAST_TESTS=1, and the suites that start BRLTTY or an Xvfb
/// desktop, or build the Debian package, are skipped, each saying so (QEMU's real-kernel tests
/// are skipped by their own SWITCHSCAN_SKIP_REAL_KERNEL=1, which it sets too).
public enum TestTier {
    /// Whether this run is the fast tier.
    public static var isFast: Bool { ProcessInfo.processInfo.environment["SWITCHSCAN_FAST_TESTS"] == "1" }
}
