// The fuzz binaries compile package sources with swiftc directly, without SwiftPM's generated resource
// accessor; this stands in for it. Resources are not needed by any fuzz target.
import Foundation

extension Bundle {
    static var module: Bundle { .main }
}
