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
#   CHANGELOG.md          an empty [Unreleased], the top release `## [VERSION] - Unreleased` (the release commit
#                         dates it; a dated heading without its tag fails) and its link `[VERSION]: .../releases/tag/VERSION`
#   SDKInfo.version       Sources/IFTTTConnectCore/Networking/SDKInfo.swift, sent to IFTTT as `IFTTT-SDK-Version`
#                         and `sdk_version`
#   the podspecs          every *.podspec's `s.version` (one pod per module)
#   the docs              README.md's `from: "VERSION"` and the DocC migration article's ``SDKInfo/version`` sentence
# Then every install channel is checked (48-podspec, check-ios-sdk.sh --channels against Apple's iOS SDK, the Carthage
# files), the full tier runs, and the release commit dates the CHANGELOG heading and adds VERSION to each Carthage
# binary project file (Carthage/NAME.json) before the tag is made on it.
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
# exit, unless the full tier failed: then its log stays there for reading (the other checks print what failed).
scratch="$(mktemp -d "${TMPDIR:-/tmp}/release-XXXXXXXX")" || { echo "release: mktemp -d failed" >&2; exit 1; }
keep_scratch=0
trap '[ "$keep_scratch" -eq 1 ] || rm -rf "$scratch"' EXIT
failures=0
ok() { echo "  ok    $*"; }
bad() { echo "  FAIL  $*"; failures=$((failures + 1)); }

# 1. The version everywhere it appears.
echo "1. the version everywhere it appears"
# [Unreleased] must be empty: its entries belong under the version being released.
unreleased_line="$(grep -n '^## \[Unreleased\]' CHANGELOG.md | head -1 | cut -d: -f1)"
if [ -n "$unreleased_line" ]; then
  entries="$(awk -v from="$unreleased_line" 'NR > from && /^## \[/ { exit } NR > from && /^[-*] / { n++ } END { print n + 0 }' CHANGELOG.md)"
  if [ "$entries" -eq 0 ]; then ok "CHANGELOG.md:$unreleased_line: [Unreleased] is empty"
  else bad "CHANGELOG.md:$unreleased_line: [Unreleased] has $entries entries: move them under [$version] before releasing it"; fi
fi
# The release's heading is `## [VERSION] - Unreleased` until the release dates it (in the commit it tags): a dated
# heading without its tag says a release happened that did not.
top="$(grep -n '^## \[' CHANGELOG.md | grep -v '\[Unreleased\]' | head -1)"
release_heading_line=""
if [[ "$top" =~ ^([0-9]+):##\ \[([^]]+)\]\ -\ (.+)$ ]]; then
  heading_line="${BASH_REMATCH[1]}" heading_version="${BASH_REMATCH[2]}" heading_date="${BASH_REMATCH[3]}"
  if [ "$heading_version" != "$version" ]; then
    bad "CHANGELOG.md:$heading_line: the top release is [$heading_version], not [$version] (add '## [$version] - Unreleased')"
  elif [ "$heading_date" = Unreleased ]; then
    release_heading_line="$heading_line"
    ok "CHANGELOG.md:$heading_line: top release [$version] - Unreleased (the release dates it in the commit it tags)"
  elif [[ "$heading_date" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] && ! git rev-parse -q --verify "refs/tags/$version" >/dev/null; then
    bad "CHANGELOG.md:$heading_line: [$version] is dated $heading_date but there is no tag $version: it was never released (write '## [$version] - Unreleased'; the release dates it)"
  else
    bad "CHANGELOG.md:$heading_line: [$version]'s heading ends in '$heading_date', neither 'Unreleased' nor the date of its tag"
  fi
else
  bad "CHANGELOG.md: no release heading '## [VERSION] - Unreleased' below [Unreleased]"
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
podspecs=(*.podspec)
[ -f "${podspecs[0]}" ] || bad "no podspec (one per module: IFTTTConnectCore.podspec, ...)"
for podspec in "${podspecs[@]}"; do
  [ -f "$podspec" ] || continue
  line="$(grep -n "^ *s\.version *= *'" "$podspec" | head -1)"
  found="$(sed -n "s/.*s\.version *= *'\([^']*\)'.*/\1/p" <<<"$line")"
  if [ "$found" = "$version" ]; then ok "$podspec:${line%%:*}: s.version '$version'"
  else bad "$podspec:${line%%:*}: s.version is '$found', not '$version'"; fi
done
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

release_channels() {
  ok "CocoaPods: $(grep -m1 'podspecs checked' "$scratch/podspec.log")"
  local channels_log="$scratch/channels.log"
  scripts/check-ios-sdk.sh --channels >"$channels_log" 2>&1
  case $? in
    0) ok "CocoaPods and XCFrameworks against Apple's SDK: $(grep -c ' 0 errors' "$channels_log") units with 0 errors; $(grep -E 'duplicate symbol definitions' "$channels_log" | sed 's/^ios-sdk: //; s/:.*images, /: /; s/ across them.*//' | paste -sd';' -)" ;;
    3) bad "CocoaPods and XCFrameworks: no iOS SDK to prove them against ($(head -1 "$channels_log"))" ;;
    *) bad "CocoaPods and XCFrameworks against Apple's SDK failed: $channels_log"; grep -E 'error|FAIL|duplicate' "$channels_log" | head -8 | sed 's/^/        /' ;;
  esac
  if scripts/carthage.sh --check >"$scratch/carthage.log" 2>&1; then
    ok "Carthage: $(tail -1 "$scratch/carthage.log")"
  else
    bad "Carthage: $(tail -3 "$scratch/carthage.log" | paste -sd' ' -)"
  fi
}
# 3. Every install channel, as its tools build it: the podspecs (48-podspec), and the pods, frameworks and their
#    clients compiled and linked against Apple's iOS SDK (check-ios-sdk.sh --channels: needs the SDK, which a release
#    cannot do without), and the Carthage binary project files (one per framework, every released version).
echo "3. the install channels"
if [ "$failures" -gt 0 ]; then
  echo "  not run: fix the failures above first (scripts/checks/48-podspec.sh, scripts/check-ios-sdk.sh --channels and"
  echo "  scripts/carthage.sh --check run them alone)"
elif ! scripts/checks/48-podspec.sh >"$scratch/podspec.log" 2>&1; then
  bad "CocoaPods: scripts/checks/48-podspec.sh failed: $scratch/podspec.log"
  tail -5 "$scratch/podspec.log" | sed 's/^/        /'
else
  release_channels
fi

# 4. The full tier.
echo "4. the full tier (scripts/test.sh --full)"
if [ "$skip_tests" -eq 1 ]; then
  echo "  SKIPPED  --skip-tests: the full tier did not run in this dry run; a release runs it"
elif [ "$failures" -gt 0 ]; then
  echo "  not run: fix the failures above first"
elif scripts/test.sh --full >"$scratch/tests.log" 2>&1; then
  ok "$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$scratch/tests.log" | tail -1)"
else
  keep_scratch=1
  bad "the full tier failed: $scratch/tests.log"; tail -5 "$scratch/tests.log" | sed 's/^/        /'
fi

if [ "$failures" -gt 0 ]; then echo "release $version: $failures checks failed; nothing was tagged"; exit 1; fi

# 5. The release commit (the CHANGELOG heading dated, the Carthage files listing the version) and its tag.
echo "5. the release commit and the tag"
message="IFTTT Connect SDK for Swift $version"
today="$(date -u +%Y-%m-%d)"
# Dates the release heading and adds the version to the Carthage files, in the checkout $1, and commits.
release_commit() {
  sed -i "${release_heading_line}s/^## \[$version\] - Unreleased\$/## [$version] - $today/" "$1/CHANGELOG.md" \
    && (cd "$1" && scripts/carthage.sh --add "$version" >/dev/null) \
    && git -C "$1" add CHANGELOG.md Carthage \
    && git -C "$1" -c user.name="${GIT_AUTHOR_NAME:-release}" -c user.email="${GIT_AUTHOR_EMAIL:-release@localhost}" \
      commit -q -m "Release $version: the CHANGELOG's [$version] is dated $today and the Carthage files list it"
}
if [ "$dry_run" -eq 0 ]; then
  release_commit "$root" || { echo "release: the release commit failed"; exit 1; }
  git tag -a "$version" -m "$message" || { echo "release: git tag failed"; exit 1; }
  ok "dated [$version] $today, added it to the Carthage files, committed and tagged $version at $(git rev-parse --short HEAD)"
  echo "next: git push origin $version   (apple.yml then builds the XCFrameworks, their checksums and the"
  echo "      Carthage JSONs on a Mac and attaches them to the release; then push the pods in dependency order:"
  echo "      for pod in IFTTTConnectCore IFTTTConnectLocation IFTTTConnectSDK IFTTTSDK IFTTTConnectService"
  echo "      IFTTTConnectTesting; do pod trunk push \$pod.podspec --synchronous; done (or pod repo push YOUR-SPECS))"
  exit 0
fi
# Dry run: tag a throwaway clone, then resolve it by version from a throwaway app, as a user's SwiftPM would.
git clone -q --no-hardlinks "$root" "$scratch/ifttt-connect-swift" && git -C "$scratch/ifttt-connect-swift" checkout -q "$(git rev-parse HEAD)" \
  || { echo "release: could not clone the repository"; exit 1; }
release_commit "$scratch/ifttt-connect-swift" || { echo "release: the release commit failed in the throwaway clone"; exit 1; }
git -C "$scratch/ifttt-connect-swift" -c user.name=release -c user.email=release@localhost tag -a "$version" -m "$message"
if grep -q "^## \[$version\] - $today\$" "$scratch/ifttt-connect-swift/CHANGELOG.md"; then
  ok "would date [$version] $today, list it in the Carthage files and tag $version on a commit after $(git rev-parse --short HEAD) (made in a throwaway clone)"
else
  bad "the release commit did not date [$version] in the throwaway clone"
fi
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
