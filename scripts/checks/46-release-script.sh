#!/usr/bin/env bash
# lane: 2
# scripts/release.sh attacked in a throwaway repository whose version checks pass and whose install-channel checks and
# full tier are stubs:
# (1) another user plants a symlink where the script used to write its test log (${TMPDIR}/release-VERSION-tests.log)
#     pointing at a file of the releaser's: the file must stay as it was, and nothing may be left in TMPDIR;
# (2) a release from a branch other than main must be refused, with no tag made.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
root="$(pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "release-script: FAIL: $*"; failures=$((failures + 1)); }

# A repository in which every version check of release.sh passes for 1.2.3.
make_repo() {   # $1 = directory, $2 = branch
  local repo="$1"
  mkdir -p "$repo/scripts/checks" "$repo/Sources/IFTTTConnectCore/Networking" \
    "$repo/Sources/IFTTTConnectCore/IFTTTConnectCore.docc"
  cp "$root/scripts/release.sh" "$repo/scripts/release.sh"
  printf '#!/usr/bin/env bash\necho "1 passed, 0 failed"\n' >"$repo/scripts/test.sh"
  printf '#!/usr/bin/env bash\necho "podspec: 1 podspecs checked"\n' >"$repo/scripts/checks/48-podspec.sh"
  printf '#!/usr/bin/env bash\necho "ios-sdk: 0 errors"\n' >"$repo/scripts/check-ios-sdk.sh"
  printf '#!/usr/bin/env bash\necho "carthage: ok"\n' >"$repo/scripts/carthage.sh"
  chmod +x "$repo/scripts/release.sh" "$repo/scripts/test.sh" "$repo/scripts/checks/48-podspec.sh" \
    "$repo/scripts/check-ios-sdk.sh" "$repo/scripts/carthage.sh"
  mkdir -p "$repo/Carthage" && echo '{}' >"$repo/Carthage/IFTTTConnectCore.json"
  printf '# Changelog\n\n## [Unreleased]\n\n## [1.2.3] - Unreleased\n\n[1.2.3]: https://example.invalid/releases/tag/1.2.3\n' \
    >"$repo/CHANGELOG.md"
  printf 'enum SDKInfo {\n    public static let version = "1.2.3"\n}\n' \
    >"$repo/Sources/IFTTTConnectCore/Networking/SDKInfo.swift"
  printf "Pod::Spec.new do |s|\n  s.version = '1.2.3'\nend\n" >"$repo/IFTTTConnectSDK.podspec"
  printf '.package(url: "x", from: "1.2.3")\n' >"$repo/README.md"
  printf 'The SDK reports ``SDKInfo/version``, 1.2.3 here.\n' \
    >"$repo/Sources/IFTTTConnectCore/IFTTTConnectCore.docc/MigratingFrom28.md"
  git -C "$repo" init -q -b "$2" && git -C "$repo" add -A \
    && git -C "$repo" -c user.name=t -c user.email=t@localhost commit -q -m fixture
}

# (1) The planted symlink.
make_repo "$work/main-repo" main || { echo "release-script: could not make the fixture"; exit 1; }
mkdir -p "$work/tmp"
echo precious >"$work/victim"
ln -s "$work/victim" "$work/tmp/release-1.2.3-tests.log"
if ! (cd "$work/main-repo" && GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@localhost TMPDIR="$work/tmp" \
  scripts/release.sh 1.2.3 >"$work/release1.out" 2>&1); then
  fail "a clean release on main failed:"; sed 's/^/    /' "$work/release1.out"
fi
[ "$(cat "$work/victim")" = "precious" ] || fail "the file behind the planted symlink was overwritten"
left="$(ls -A "$work/tmp" | grep -v '^release-1.2.3-tests.log$')"
[ -z "$left" ] || fail "release.sh left files in TMPDIR: $left"

# (2) Off main.
make_repo "$work/branch-repo" feature || { echo "release-script: could not make the fixture"; exit 1; }
if (cd "$work/branch-repo" && GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@localhost TMPDIR="$work/tmp" \
  scripts/release.sh 1.2.3 >"$work/release2.out" 2>&1); then
  fail "a release from branch 'feature' succeeded"
fi
git -C "$work/branch-repo" rev-parse -q --verify refs/tags/1.2.3 >/dev/null && fail "a tag was made off main"
grep -q "not main" "$work/release2.out" || fail "the refusal does not name the branch:$(sed 's/^/ /' "$work/release2.out")"

if [ "$failures" -gt 0 ]; then exit 1; fi
echo "release-script: a planted symlink is not followed, nothing is left in TMPDIR, and no tag is made off main"
