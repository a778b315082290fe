# The flags of the test command's debug builds (sourced by scripts/test.sh and the checks that reuse its build).
# Every build of a package's .build must use exactly these, or SwiftPM recompiles every module with the other flags.
# shellcheck disable=SC2034
test_build_flags=(--build-tests -Xswiftc -warnings-as-errors)
