import Platform

/// Calls a C function that returns -1 and sets `errno` on failure, again while it fails with
/// `EINTR`. Returns the result or the error number.
@inline(__always)
func retryingOnInterrupt(_ call: () -> Int32) -> Result<Int32, Errno> {
    while true {
        let result = call()
        if result != -1 { return .success(result) }
        let error = Errno.current
        if error != .interrupted { return .failure(error) }
    }
}

/// Calls a libevdev function that returns a negative error number on failure (`-EAGAIN`), again
/// while it returns `-EINTR`. Returns the (non-negative) result or the error number.
@inline(__always)
func retryingNegativeErrno(_ call: () -> Int32) -> Result<Int32, Errno> {
    while true {
        let result = call()
        if result >= 0 { return .success(result) }
        let error = Errno(rawValue: -result)
        if error != .interrupted { return .failure(error) }
    }
}
