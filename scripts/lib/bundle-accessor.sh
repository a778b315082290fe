# shellcheck shell=bash
# Writes to $1 a stand-in for what SwiftPM generates for a target with resources (`Bundle.module`), so that such a
# target compiles outside SwiftPM (for type-checking and object scans, where no bundle is loaded).
write_bundle_accessor() {
  printf 'import Foundation\n\nextension Foundation.Bundle {\n    static var module: Bundle { Bundle.main }\n}\n' >"$1"
}
