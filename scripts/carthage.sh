#!/usr/bin/env bash
# The Carthage binary project files: one per framework of the SDK (Carthage/NAME.json, the modules of the podspecs),
# each a stable file at a stable URL listing every released version with the URL of that release's
# NAME.xcframework.zip, so that `binary ".../Carthage/IFTTTConnectCore.json" ~> 3.0` resolves any later 3.x.
#
#   scripts/carthage.sh --check          each file parses, exists for every framework and lists exactly the version
#                                        tags of this repository (MAJOR.MINOR.PATCH), each with its release's zip
#   scripts/carthage.sh --add VERSION    add VERSION to every file (scripts/release.sh does, in the release commit)
#
# Needs ruby (scripts/bootstrap.sh installs Debian's).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
base="https://github.com/IFTTT/ConnectSDK-Swift/releases/download"
mode="${1:-}"
case "$mode" in
  --check) ;;
  --add) [ -n "${2:-}" ] || { echo "usage: scripts/carthage.sh --add VERSION" >&2; exit 2; } ;;
  -h|--help) sed -n '2,/^set -uo pipefail/p' "$0" | sed '$d'; exit 0 ;;
  *) echo "usage: scripts/carthage.sh --check | --add VERSION" >&2; exit 2 ;;
esac
command -v ruby >/dev/null || { echo "carthage: no ruby (scripts/bootstrap.sh installs it)"; exit 1; }
mapfile -t frameworks < <(ls ./*.podspec | sed 's|^\./||; s|\.podspec$||' | sort)
[ "${#frameworks[@]}" -gt 0 ] || { echo "carthage: no podspecs name the frameworks"; exit 1; }
mkdir -p Carthage
tags="$(git tag --list | grep -E '^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$' | sort -V | paste -sd' ' -)"
ruby -rjson - "$mode" "${2:-}" "$base" "$tags" "${frameworks[@]}" <<'RUBY'
mode, version, base, tags, *frameworks = ARGV
tags = tags.split
failures = []
frameworks.each do |name|
  path = "Carthage/#{name}.json"
  versions = File.exist?(path) ? JSON.parse(File.read(path)) : nil
  url = ->(v) { "#{base}/#{v}/#{name}.xcframework.zip" }
  if mode == '--add'
    versions ||= {}
    versions[version] = url.(version)
    sorted = versions.sort_by { |v, _| v.split('.').map(&:to_i) }.to_h
    File.write(path, JSON.pretty_generate(sorted) + "\n")
    next
  end
  if versions.nil?
    failures << "#{path} is missing (every framework has one)"
    next
  end
  failures << "#{path}: lists #{versions.keys.join(', ')}, the released versions (tags) are #{tags.join(', ')}" unless versions.keys.sort == tags.sort
  versions.each { |v, u| failures << "#{path}: #{v} points at #{u}, not #{url.(v)}" unless u == url.(v) }
end
(Dir.glob('Carthage/*.json').map { |f| File.basename(f, '.json') } - frameworks).each { |n| failures << "Carthage/#{n}.json names no framework" }
if mode == '--add'
  puts "carthage: #{frameworks.size} files list #{version}"
  exit 0
end
failures.each { |f| puts "carthage: FAIL #{f}" }
exit 1 unless failures.empty?
listed = tags.empty? ? 'no version yet (no release tag exists)' : "the #{tags.size} released versions #{tags.join(', ')}"
puts "carthage: #{frameworks.size} binary project files (#{frameworks.join(', ')}), each listing #{listed}"
RUBY
