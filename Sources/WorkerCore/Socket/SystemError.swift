import Glibc

/// Text for `errno` values in messages for the operator.
package enum SystemError {
    /// The C library's description of `code`.
    package static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
