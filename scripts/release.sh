#!/usr/bin/env bash
# Releases the SDK as VERSION: checks that every place naming the version agrees, runs the full tier, and creates the
# annotated git tag VERSION that `.package(url: ..., from: "VERSION")`, `pod 'IFTTTConnectSDK', :git => ..., :tag =>
# 'VERSION'` and the CHANGELOG's release link resolve. Pushing the tag starts .github/workflows/apple.yml, which builds
# each product's XCFramework on a Mac (device and simulator slices, library evolution on, privacy manifests inside)
# and attaches them, their SwiftPM checksums and a Carthage binary project JSON to the release.
#
#   scripts/release.sh VERSION                 check, run the full tier, tag (the working tree must be clean and on
#                                              main: any other branch or a detached HEAD is refused)
#   scripts/release.sh VERSION --dry-run       the same without touching this repository: the tag is made in a
#                                              throwaway clone, and a throwaway app resolves
#                                              `.package(url: <that clone>, from: "VERSION")` against it
#   scripts/release.sh VERSION --dry-run --skip-tests   also skips the full tier (it says so; only with --dry-run)
#
# Where the version must appear (each is checked; the first mismatch names the file and line):
#   CHANGELOG.md          the top release `## [VERSION] - YYYY-MM-DD` and its link `[VERSION]: .../releases/tag/VERSION`
#   SDKInfo.version       Sources/IFTTTConnectCore/Networking/SDKInfo.swift, sent to IFTTT as `IFTTT-SDK-Version`
#                         and `sdk_version`
#   the podspec           IFTTTConnectSDK.podspec's `s.version`
#   the docs              README.md's `from: "VERSION"` and the DocC migration article's ``SDKInfo/version`` sentence
# Runs on Linux (only the XCFrameworks need a Mac). Exit status: 0 released (or would be), 1 a check failed, 2 usage.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
root="$(pwd)"

version="" dry_run=0 skip_tests=0
for argument in "$@"; do
  case "$argument" in
    --dry-run) dry_run=1 ;;
    --skip-tests) skip_tests=1 ;;
    -h|--help) sed -n '2,/^set -uo pipefail/p' "$0" | sed '$d'; exit 0 ;;
    -*) echo "release: unknown option $argument (see --help)" >&2; exit 2 ;;
    *) [ -z "$version" ] || { echo "release: one VERSION only" >&2; exit 2; }; version="$argument" ;;
  esac
done
[ -n "$version" ] || { echo "usage: scripts/release.sh VERSION [--dry-run [--skip-tests]]" >&2; exit 2; }
if ! [[ "$version" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "release: '$version' is not a semantic version (MAJOR.MINOR.PATCH[-PRERELEASE]); SwiftPM and CocoaPods need one" >&2
  exit 2
fi
if [ "$skip_tests" -eq 1 ] && [ "$dry_run" -eq 0 ]; then
  echo "release: --skip-tests only goes with --dry-run: a release runs the full tier" >&2; exit 2
fi
mode="release"; [ "$dry_run" -eq 1 ] && mode="dry run"
echo "release $version ($mode)"
# Everything the script writes goes into its own private folder (mktemp -d: mode 0700, a fresh unguessable name), never
# into a predictable path of a shared temporary directory where another user could plant a symlink. It is removed at
# exit, unless the full tier failed: then its log stays there for reading.
scratch="$(mktemp -d "${TMPDIR:-/tmp}/release-XXXXXXXX")" || { echo "release: mktemp -d failed" >&2; exit 1; }
keep_scratch=0
trap '[ "$keep_scratch" -eq 1 ] || rm -rf "$scratch"' EXIT
failures=0
ok() { echo "  ok    $*"; }
bad() { echo "  FAIL  $*"; failures=$((failures + 1)); }

# 1. The version everywhere it appears.
echo "1. the version everywhere it appears"
top="$(grep -n '^## \[' CHANGELOG.md | grep -v '\[Unreleased\]' | head -1)"
if [[ "$top" =~ ^([0-9]+):##\ \[([^]]+)\]\ -\ ([0-9]{4}-[0-9]{2}-[0-9]{2})$ ]]; then
  if [ "${BASH_REMATCH[2]}" = "$version" ]; then
    ok "CHANGELOG.md:${BASH_REMATCH[1]}: top release [$version] of ${BASH_REMATCH[3]}"
  else
    bad "CHANGELOG.md:${BASH_REMATCH[1]}: the top release is [${BASH_REMATCH[2]}], not [$version] (move [Unreleased] to [$version] - DATE)"
  fi
else
  bad "CHANGELOG.md: no release heading '## [VERSION] - YYYY-MM-DD' below [Unreleased]"
fi
link="$(grep -n "^\[$version\]: " CHANGELOG.md | head -1)"
if [ -n "$link" ] && [[ "$link" == *"/releases/tag/$version" ]]; then
  ok "CHANGELOG.md:${link%%:*}: link [$version] to its release tag"
else
  bad "CHANGELOG.md: no link line '[$version]: .../releases/tag/$version'"
fi
sdkinfo=Sources/IFTTTConnectCore/Networking/SDKInfo.swift
line="$(grep -n 'public static let version = "' "$sdkinfo" | head -1)"
found="$(sed -n 's/.*public static let version = "\([^"]*\)".*/\1/p' <<<"$line")"
if [ "$found" = "$version" ]; then ok "$sdkinfo:${line%%:*}: SDKInfo.version \"$version\" (sent as IFTTT-SDK-Version and sdk_version)"
else bad "$sdkinfo:${line%%:*}: SDKInfo.version is \"$found\", not \"$version\""; fi
podspec=IFTTTConnectSDK.podspec
if [ -f "$podspec" ]; then
  line="$(grep -n "^ *s\.version *= *'" "$podspec" | head -1)"
  found="$(sed -n "s/.*s\.version *= *'\([^']*\)'.*/\1/p" <<<"$line")"
  if [ "$found" = "$version" ]; then ok "$podspec:${line%%:*}: s.version '$version'"
  else bad "$podspec:${line%%:*}: s.version is '$found', not '$version'"; fi
else
  bad "$podspec: missing"
fi
line="$(grep -n 'from: "[0-9][^"]*"' README.md | head -1)"
found="$(sed -n 's/.*from: "\([^"]*\)".*/\1/p' <<<"$line")"
if [ "$found" = "$version" ]; then ok "README.md:${line%%:*}: from: \"$version\""
else bad "README.md:${line%%:*}: the install section says from: \"$found\", not \"$version\""; fi
migration=Sources/IFTTTConnectCore/IFTTTConnectCore.docc/MigratingFrom28.md
line="$(grep -n '``SDKInfo/version``, [0-9]' "$migration" | head -1)"
found="$(sed -n 's/.*``SDKInfo\/version``, \([0-9][0-9A-Za-z.-]*[0-9A-Za-z]\).*/\1/p' <<<"$line")"
if [ "$found" = "$version" ]; then ok "$migration:${line%%:*}: \`\`SDKInfo/version\`\`, $version"
else bad "$migration:${line%%:*}: names version '$found', not '$version'"; fi

# 2. The repository state.
echo "2. the repository"
if git rev-parse -q --verify "refs/tags/$version" >/dev/null; then
  bad "the tag $version exists already (at $(git rev-parse --short "refs/tags/$version^{commit}"))"
else
  ok "no tag $version yet"
fi
branch="$(git symbolic-ref -q --short HEAD || echo "a detached HEAD")"
if [ "$branch" = "main" ]; then ok "on main"
elif [ "$dry_run" -eq 1 ]; then echo "  note  on $branch, not main: a release tags only from main"
else bad "on $branch, not main: a release tags only from main"; fi
dirty="$(git status --porcelain --untracked-files=no)"
if [ -z "$dirty" ]; then ok "the working tree is clean (HEAD $(git rev-parse --short HEAD))"
elif [ "$dry_run" -eq 1 ]; then echo "  note  the working tree has uncommitted changes: the dry run tags HEAD ($(git rev-parse --short HEAD)) without them"
else bad "the working tree has uncommitted changes"; fi

# 3. The full tier.
echo "3. the full tier (scripts/test.sh --full)"
if [ "$skip_tests" -eq 1 ]; then
  echo "  SKIPPED  --skip-tests: the full tier did not run in this dry run; a release runs it"
elif [ "$failures" -gt 0 ]; then
  echo "  not run: fix the version first"
elif scripts/test.sh --full >"$scratch/tests.log" 2>&1; then
  ok "$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$scratch/tests.log" | tail -1)"
else
  keep_scratch=1
  bad "the full tier failed: $scratch/tests.log"; tail -5 "$scratch/tests.log" | sed 's/^/        /'
fi

if [ "$failures" -gt 0 ]; then echo "release $version: $failures checks failed; nothing was tagged"; exit 1; fi

# 4. The tag.
echo "4. the tag"
message="IFTTT Connect SDK for Swift $version"
if [ "$dry_run" -eq 0 ]; then
  git tag -a "$version" -m "$message" || { echo "release: git tag failed"; exit 1; }
  ok "tagged $version at $(git rev-parse --short HEAD)"
  echo "next: git push origin $version   (apple.yml then builds the XCFrameworks, their checksums and the"
  echo "      Carthage JSON on a Mac and attaches them to the release; pod trunk push IFTTTConnectSDK.podspec, or"
  echo "      pod repo push YOUR-SPECS IFTTTConnectSDK.podspec for a private spec repo)"
  exit 0
fi
# Dry run: tag a throwaway clone, then resolve it by version from a throwaway app, as a user's SwiftPM would.
git clone -q --no-hardlinks "$root" "$scratch/ifttt-connect-swift" && git -C "$scratch/ifttt-connect-swift" checkout -q "$(git rev-parse HEAD)" \
  || { echo "release: could not clone the repository"; exit 1; }
git -C "$scratch/ifttt-connect-swift" -c user.name=release -c user.email=release@localhost tag -a "$version" -m "$message"
ok "would tag $version at $(git rev-parse --short HEAD) (made in a throwaway clone: git tag -a $version -m \"$message\")"
mkdir -p "$scratch/app/Sources/App"
cat >"$scratch/app/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
    name: "App",
    platforms: [.iOS(.v13), .macOS(.v12)],
    dependencies: [.package(url: "file://$scratch/ifttt-connect-swift", from: "$version")],
    targets: [.target(name: "App", dependencies: [.product(name: "IFTTTConnectSDK", package: "ifttt-connect-swift")])]
)
SWIFT
echo 'import IFTTTConnectSDK' >"$scratch/app/Sources/App/App.swift"
if (cd "$scratch/app" && swift package resolve >"$scratch/resolve.log" 2>&1); then
  resolved="$(sed -n 's/.*"version" *: *"\([^"]*\)".*/\1/p' "$scratch/app/Package.resolved" | head -1)"
  if [ "$resolved" = "$version" ]; then
    ok "an app's .package(url:, from: \"$version\") resolves to $resolved from the tagged clone"
  else
    bad "an app's .package(url:, from: \"$version\") resolved to '$resolved'"; cat "$scratch/resolve.log"
  fi
else
  bad "an app's .package(url:, from: \"$version\") does not resolve:"; sed 's/^/        /' "$scratch/resolve.log"
fi
if [ "$failures" -gt 0 ]; then echo "release $version (dry run): $failures checks failed"; exit 1; fi
echo "release $version (dry run): every check passed$([ "$skip_tests" -eq 1 ] && echo ", the full tier SKIPPED (--skip-tests)"); nothing in this repository changed"
