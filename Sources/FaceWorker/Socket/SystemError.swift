import Glibc

/// Text for `errno` values in messages for the operator.
enum SystemError {
    /// The C library's description of `code`.
    static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
