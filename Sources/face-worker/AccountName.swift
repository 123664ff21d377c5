import ArgumentParser
import Glibc

/// Reads `--allow-uid` and `--allow-group` values: a number, or a name looked
/// up in the system's user and group databases.
enum AccountName {
    /// The user ID `value` names.
    static func uid(_ value: String) throws -> UInt32 {
        if let number = UInt32(value) { return number }
        guard let entry = getpwnam(value) else {
            throw ValidationError("--allow-uid \(value): no such user")
        }
        return entry.pointee.pw_uid
    }

    /// The group ID `value` names.
    static func gid(_ value: String) throws -> UInt32 {
        if let number = UInt32(value) { return number }
        guard let entry = getgrnam(value) else {
            throw ValidationError("--allow-group \(value): no such group")
        }
        return entry.pointee.gr_gid
    }
}
