# The flags of the test command's debug builds (sourced by scripts/test.sh and the checks that reuse its build).
# Every build of a package's .build must use exactly these, or SwiftPM recompiles every module with the other flags.
# shellcheck disable=SC2034
# No index store: nothing here reads it, and writing it cost about a tenth of a debug build's CPU (101 s against 90 s
# for the SDK package with its tests, 2026-12-06).
test_build_flags=(--build-tests --disable-index-store -Xswiftc -warnings-as-errors)
