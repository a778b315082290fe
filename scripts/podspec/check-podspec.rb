#!/usr/bin/env ruby
# frozen_string_literal: true
# Evaluates IFTTTConnectSDK.podspec without CocoaPods (a small Pod::Spec of our own that records what the spec
# declares and refuses any attribute it does not know, so a misspelt one fails here rather than in `pod install`),
# then checks it against what SwiftPM builds, from `swift package describe --type json`:
#   - each subspec's source_files globs match exactly the Swift files SwiftPM compiles for one library target;
#   - each subspec's resource_bundles match exactly that target's resources, every file exists, and the bundle is
#     named after the target (ConnectResources looks for IFTTTConnectCore.bundle);
#   - each subspec depends on the subspecs of that target's dependencies; the default subspec is the umbrella;
#   - every module one subspec's sources import from another subspec is in CocoaPods/ModuleStubs/module.modulemap
#     (under CocoaPods the subspecs are one module), and preserve_paths covers that folder;
#   - the version is SDKInfo.version (and the source tag), the deployment targets and the Swift version agree with
#     Package.swift.
#
#   ruby scripts/podspec/check-podspec.rb PODSPEC DESCRIBE.json
require 'json'
require 'set'

module Pod
  # The attributes this stand-in accepts (those IFTTTConnectSDK.podspec may use); anything else is an error.
  ROOT_ATTRIBUTES = %w[name version summary description homepage license author authors source module_name
                       swift_versions cocoapods_version default_subspecs preserve_paths pod_target_xcconfig].freeze
  SPEC_ATTRIBUTES = %w[source_files resource_bundles frameworks weak_frameworks pod_target_xcconfig
                       preserve_paths].freeze
  PLATFORMS = %w[ios osx tvos watchos visionos].freeze

  # `s.ios.deployment_target = '13.0'`, `s.ios.frameworks = 'A', 'B'`.
  class PlatformProxy
    def initialize(spec, platform)
      @spec = spec
      @platform = platform
    end

    def method_missing(method, *arguments)
      name = method.to_s
      unless name.end_with?('=') && (name == 'deployment_target=' || SPEC_ATTRIBUTES.include?(name.chomp('=')))
        raise NoMethodError, "#{@spec.full_name}: unknown attribute #{@platform}.#{name.chomp('=')}"
      end
      value = arguments.length == 1 ? arguments.first : arguments
      (@spec.platform_attributes[@platform] ||= {})[name.chomp('=')] = value
    end

    def respond_to_missing?(_method, _private = false) = true
  end

  # One spec or subspec, as the podspec declares it.
  class Spec
    attr_reader :attributes, :platform_attributes, :subspecs, :dependencies, :parent, :base_name

    def initialize(parent = nil, name = nil)
      @parent = parent
      @base_name = name
      @attributes = {}
      @platform_attributes = {}
      @subspecs = []
      @dependencies = []
      yield self if block_given?
      Pod.specs << self if parent.nil?
    end

    def full_name = parent ? "#{parent.full_name}/#{base_name}" : attributes['name'].to_s
    def root? = parent.nil?
    def subspec(name, &block) = @subspecs << Spec.new(self, name, &block)
    def dependency(name, *requirements) = @dependencies << [name, requirements]
    def version = attributes['version']

    PLATFORMS.each { |platform| define_method(platform) { PlatformProxy.new(self, platform) } }

    def method_missing(method, *arguments)
      name = method.to_s
      allowed = root? ? ROOT_ATTRIBUTES + SPEC_ATTRIBUTES : SPEC_ATTRIBUTES
      raise NoMethodError, "#{full_name}: unknown attribute #{name.chomp('=')}" unless name.end_with?('=') && allowed.include?(name.chomp('='))

      @attributes[name.chomp('=')] = arguments.length == 1 ? arguments.first : arguments
    end

    def respond_to_missing?(_method, _private = false) = true
  end

  def self.specs = (@specs ||= [])
end

podspec_path, describe_path = ARGV
abort 'usage: check-podspec.rb PODSPEC DESCRIBE.json' unless podspec_path && describe_path
root = File.dirname(File.expand_path(podspec_path))
failures = []
fail_with = ->(message) { failures << message }

begin
  eval(File.read(podspec_path), binding, podspec_path) # rubocop:disable Security/Eval
rescue StandardError, SyntaxError => e
  puts "podspec: #{podspec_path} does not evaluate: #{e.message}"
  exit 1
end
spec = Pod.specs.first or abort("podspec: #{podspec_path} declares no Pod::Spec")
package = JSON.parse(File.read(describe_path))
targets = package['targets'].to_h { |target| [target['name'], target] }
library_targets = package['products'].select { |product| product['type']&.key?('library') }.flat_map { |product| product['targets'] }.to_set

# Files a list of globs matches, relative to the repository (CocoaPods globs: **, *, {a,b}).
expand = lambda do |globs|
  Array(globs).flat_map { |glob| Dir.glob(glob, File::FNM_EXTGLOB, base: root) }.reject { |path| File.directory?(File.join(root, path)) }.to_set
end

# 1. The root: name, version, source tag, Swift version, deployment targets.
sdk_version = File.read(File.join(root, 'Sources/IFTTTConnectCore/Networking/SDKInfo.swift'))[/public static let version = "([^"]+)"/, 1]
fail_with.call("version '#{spec.version}' is not SDKInfo.version '#{sdk_version}'") unless spec.version == sdk_version
fail_with.call("source tag '#{spec.attributes.dig('source', :tag)}' is not the version") unless spec.attributes.dig('source', :tag) == spec.version
fail_with.call("source has no :git URL") unless spec.attributes.dig('source', :git).to_s.start_with?('https://')
fail_with.call("module_name is not #{spec.attributes['name']}") unless spec.attributes['module_name'] == spec.attributes['name']
swift = Array(spec.attributes['swift_versions'])
fail_with.call("swift_versions #{swift} lack Package.swift's tools version #{package['tools_version']}") unless swift.include?(package['tools_version'])
platform_names = { 'ios' => 'ios', 'macos' => 'osx', 'tvos' => 'tvos', 'watchos' => 'watchos', 'visionos' => 'visionos' }
package['platforms'].each do |platform|
  pod_platform = platform_names.fetch(platform['name'])
  declared = spec.platform_attributes.dig(pod_platform, 'deployment_target')
  fail_with.call("#{pod_platform}.deployment_target is #{declared.inspect}, Package.swift says #{platform['version']}") unless declared == platform['version']
end
extra = spec.platform_attributes.keys.select { |p| spec.platform_attributes[p].key?('deployment_target') } - package['platforms'].map { |p| platform_names[p['name']] }
fail_with.call("deployment targets for platforms Package.swift does not support: #{extra.join(', ')}") unless extra.empty?
puts "podspec: #{spec.full_name} #{spec.version} (SDKInfo.version #{sdk_version}), Swift #{swift.join(', ')}, " \
     "#{package['platforms'].map { |p| "#{platform_names[p['name']]} #{p['version']}" }.join(', ')} as Package.swift"

# 2. Each subspec against the SwiftPM target it stands for.
subspec_of_target = {}
spec.subspecs.each do |subspec|
  sources = expand.call(subspec.attributes['source_files'])
  candidates = targets.values.select do |target|
    target['type'] == 'library' && sources == target['sources'].to_set { |file| File.join(target['path'], file) }
  end
  if candidates.length != 1
    fail_with.call("#{subspec.full_name}: its #{sources.size} source files are no SwiftPM library target's sources " \
                   "(#{Array(subspec.attributes['source_files']).join(', ')})")
    next
  end
  target = candidates.first
  fail_with.call("#{subspec.full_name}: #{target['name']} is in no library product") unless library_targets.include?(target['name'])
  subspec_of_target[target['name']] = subspec
  swiftpm_resources = Array(target['resources']).to_set { |resource| resource['path'].delete_prefix("#{root}/") }
  bundles = subspec.attributes['resource_bundles'] || {}
  pod_resources = bundles.values.flat_map { |globs| expand.call(globs).to_a }.to_set
  Array(bundles.values).flatten.each do |glob|
    fail_with.call("#{subspec.full_name}: resource glob #{glob} matches nothing") if expand.call(glob).empty?
  end
  unless bundles.empty? || bundles.keys == [target['name']]
    fail_with.call("#{subspec.full_name}: its resource bundle is #{bundles.keys.join(', ')}, not #{target['name']} (what the code looks for)")
  end
  missing = swiftpm_resources - pod_resources
  surplus = pod_resources - swiftpm_resources
  missing.each { |file| fail_with.call("#{subspec.full_name}: SwiftPM's resource #{file} is in no resource bundle") }
  surplus.each { |file| fail_with.call("#{subspec.full_name}: resource #{file} is not one of SwiftPM's for #{target['name']}") }
  missing_files = pod_resources.reject { |file| File.file?(File.join(root, file)) }
  missing_files.each { |file| fail_with.call("#{subspec.full_name}: resource #{file} does not exist") }
  puts format('podspec: %-30s = %-22s %3d Swift files, %2d resources (bundle %s), exactly as SwiftPM builds them',
              subspec.full_name, target['name'], sources.size, pod_resources.size, bundles.keys.first || '-')
end

# 3. Dependencies, the default subspec, and the imports between subspecs.
stubs_path = File.join(root, 'CocoaPods/ModuleStubs/module.modulemap')
stub_modules = File.file?(stubs_path) ? File.read(stubs_path).scan(/^module (\w+) \{/).flatten.to_set : Set.new
imported = Set.new
subspec_of_target.each do |target_name, subspec|
  wanted = Array(targets[target_name]['target_dependencies']).map { |name| subspec_of_target[name]&.full_name || "(no subspec for #{name})" }.to_set
  declared = subspec.dependencies.map(&:first).to_set
  fail_with.call("#{subspec.full_name}: depends on #{declared.to_a.sort.join(', ')}, SwiftPM's #{target_name} on #{wanted.to_a.sort.join(', ')}") unless wanted == declared
  expand.call(subspec.attributes['source_files']).each do |file|
    File.read(File.join(root, file)).scan(/^\s*(?:@_exported\s+)?import\s+(\w+)\s*$/).flatten.each do |mod|
      imported << mod if subspec_of_target.key?(mod)
    end
  end
end
(imported - stub_modules).each do |mod|
  fail_with.call("the sources import #{mod}, another subspec's module, but CocoaPods/ModuleStubs/module.modulemap has no module #{mod}")
end
preserved = expand.call(spec.attributes['preserve_paths'])
fail_with.call("preserve_paths does not cover CocoaPods/ModuleStubs/module.modulemap") unless preserved.include?('CocoaPods/ModuleStubs/module.modulemap')
include_paths = spec.attributes.dig('pod_target_xcconfig', 'SWIFT_INCLUDE_PATHS').to_s
fail_with.call('pod_target_xcconfig SWIFT_INCLUDE_PATHS lacks CocoaPods/ModuleStubs') unless include_paths.include?('CocoaPods/ModuleStubs')
unless spec.attributes.dig('pod_target_xcconfig', 'OTHER_SWIFT_FLAGS').to_s.include?('-package-name')
  fail_with.call('pod_target_xcconfig OTHER_SWIFT_FLAGS lacks -package-name (the sources use the package access level)')
end
umbrella = subspec_of_target[spec.attributes['name']]
default = Array(spec.attributes['default_subspecs'])
if umbrella.nil? || default != [umbrella.base_name]
  fail_with.call("the default subspec is #{default.inspect}, not the umbrella (the subspec of target #{spec.attributes['name']})")
end
puts "podspec: dependencies as Package.swift's; default subspec #{default.join(', ')} (the umbrella); " \
     "imports between subspecs (#{imported.to_a.sort.join(', ')}) met by CocoaPods/ModuleStubs"

failures.each { |failure| puts "podspec: FAIL #{failure}" }
puts "podspec: #{spec.subspecs.size} subspecs checked, #{failures.size} problems"
exit(failures.empty? ? 0 : 1)
