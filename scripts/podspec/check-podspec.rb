#!/usr/bin/env ruby
# frozen_string_literal: true
# Evaluates the SDK's podspecs (one pod per SwiftPM library product: IFTTTConnectCore.podspec, ...) without CocoaPods
# (a small Pod::Spec of our own that records what a spec declares and refuses any attribute it does not know, so a
# misspelt one fails here rather than in `pod install`), then checks them against what SwiftPM builds, from
# `swift package describe --type json`:
#   - each pod is one library product's target: same name, module_name, exactly its Swift files and its resources
#     (as the resource bundle named after the target, which ConnectResources looks for; every file exists);
#   - each pod depends on the pods of that target's dependencies, pinned to its own version, and every module of the
#     SDK a pod's sources import is a pod it depends on (directly or through another); no stub modules, no subspecs,
#     no SWIFT_INCLUDE_PATHS (what the pods import is what they depend on);
#   - every library product has a pod but those NOT_OFFERED names (with the reason);
#   - the version is SDKInfo.version (and the source tag), the license is the repository's LICENSE file, the
#     deployment targets and the Swift version agree with Package.swift, and every pod passes the same -package-name.
# With --dump FILE it writes the pods in dependency order as JSON (name, sources, dependencies, the Swift flags of
# pod_target_xcconfig, swift_versions), what scripts/check-ios-sdk.sh compiles them from.
#
#   ruby scripts/podspec/check-podspec.rb DESCRIBE.json PODSPEC... [--dump FILE]
require 'json'
require 'set'

module Pod
  # The attributes this stand-in accepts (those the SDK's podspecs may use); anything else is an error.
  ROOT_ATTRIBUTES = %w[name version summary description homepage license author authors source module_name
                       swift_versions cocoapods_version pod_target_xcconfig].freeze
  SPEC_ATTRIBUTES = %w[source_files resource_bundles frameworks weak_frameworks pod_target_xcconfig].freeze
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

# The library products no pod offers, with the reason.
NOT_OFFERED = { 'IFTTTConnectDesktop' => 'for desktop and command-line programs (a loopback redirect receiver); an iOS app needs nothing from it' }.freeze

arguments = ARGV.dup
dump_path = nil
if (index = arguments.index('--dump'))
  dump_path = arguments[index + 1] or abort('--dump needs a FILE')
  arguments.slice!(index, 2)
end
describe_path, *podspec_paths = arguments
abort 'usage: check-podspec.rb DESCRIBE.json PODSPEC... [--dump FILE]' if describe_path.nil? || podspec_paths.empty?
root = File.dirname(File.expand_path(podspec_paths.first))
failures = []
fail_with = ->(message) { failures << message }

podspec_paths.each do |path|
  before = Pod.specs.size
  begin
    eval(File.read(path), binding, path) # rubocop:disable Security/Eval
  rescue StandardError, SyntaxError => e
    puts "podspec: #{path} does not evaluate: #{e.message}"
    exit 1
  end
  fail_with.call("#{path} declares #{Pod.specs.size - before} Pod::Specs, not one") unless Pod.specs.size == before + 1
  named = File.basename(path, '.podspec')
  spec = Pod.specs.last
  fail_with.call("#{path} declares the pod #{spec.full_name}, not #{named}") unless spec.full_name == named
end
package = JSON.parse(File.read(describe_path))
targets = package['targets'].to_h { |target| [target['name'], target] }
products = package['products'].select { |product| product['type']&.key?('library') }

# Files a list of globs matches, relative to the repository (CocoaPods globs: **, *, {a,b}).
expand = lambda do |globs|
  Array(globs).flat_map { |glob| Dir.glob(glob, File::FNM_EXTGLOB, base: root) }.reject { |path| File.directory?(File.join(root, path)) }.to_set
end
sdk_version = File.read(File.join(root, 'Sources/IFTTTConnectCore/Networking/SDKInfo.swift'))[/public static let version = "([^"]+)"/, 1]
platform_names = { 'ios' => 'ios', 'macos' => 'osx', 'tvos' => 'tvos', 'watchos' => 'watchos', 'visionos' => 'visionos' }
pods = Pod.specs.to_h { |spec| [spec.full_name, spec] }
swift_flags = lambda do |spec|
  spec.attributes.dig('pod_target_xcconfig', 'OTHER_SWIFT_FLAGS').to_s.split.reject { |flag| flag == '$(inherited)' }
end
package_names = Set.new
if File.exist?(File.join(root, 'CocoaPods/ModuleStubs'))
  fail_with.call('CocoaPods/ModuleStubs exists: a pod imports the pods it depends on, never a stub module')
end

# 1. Each pod: the root attributes, then the SwiftPM target it stands for.
Pod.specs.each do |spec|
  name = spec.full_name
  fail_with.call("#{name}: version '#{spec.version}' is not SDKInfo.version '#{sdk_version}'") unless spec.version == sdk_version
  fail_with.call("#{name}: source tag '#{spec.attributes.dig('source', :tag)}' is not the version") unless spec.attributes.dig('source', :tag) == spec.version
  fail_with.call("#{name}: source has no :git URL") unless spec.attributes.dig('source', :git).to_s.start_with?('https://')
  fail_with.call("#{name}: module_name is not #{name}") unless spec.attributes['module_name'] == name
  license = spec.attributes['license']
  unless license.is_a?(Hash) && license[:type] == 'MIT' && license[:file] && File.file?(File.join(root, license[:file]))
    fail_with.call("#{name}: license is not MIT with the repository's LICENSE file (#{license.inspect})")
  end
  fail_with.call("#{name}: has subspecs (#{spec.subspecs.map(&:full_name).join(', ')}): one pod is one module") unless spec.subspecs.empty?
  swift = Array(spec.attributes['swift_versions'])
  fail_with.call("#{name}: swift_versions #{swift} lack Package.swift's tools version #{package['tools_version']}") unless swift.include?(package['tools_version'])
  package['platforms'].each do |platform|
    pod_platform = platform_names.fetch(platform['name'])
    declared = spec.platform_attributes.dig(pod_platform, 'deployment_target')
    fail_with.call("#{name}: #{pod_platform}.deployment_target is #{declared.inspect}, Package.swift says #{platform['version']}") unless declared == platform['version']
  end
  extra = spec.platform_attributes.keys.select { |p| spec.platform_attributes[p].key?('deployment_target') } - package['platforms'].map { |p| platform_names[p['name']] }
  fail_with.call("#{name}: deployment targets for platforms Package.swift does not support: #{extra.join(', ')}") unless extra.empty?
  if spec.attributes.dig('pod_target_xcconfig', 'SWIFT_INCLUDE_PATHS')
    fail_with.call("#{name}: pod_target_xcconfig sets SWIFT_INCLUDE_PATHS: a pod sees only the modules of the pods it depends on")
  end
  flags = swift_flags.call(spec)
  package_name = flags.each_cons(2).find { |flag, _| flag == '-package-name' }&.last
  if package_name.nil?
    fail_with.call("#{name}: pod_target_xcconfig OTHER_SWIFT_FLAGS lacks -package-name (the sources use the package access level)")
  else
    package_names << package_name
  end

  target = targets[name]
  product = products.find { |candidate| candidate['name'] == name }
  if target.nil? || target['type'] != 'library' || product.nil? || product['targets'] != [name]
    fail_with.call("#{name}: no SwiftPM library product #{name} of the one target #{name}")
    next
  end
  sources = expand.call(spec.attributes['source_files'])
  swiftpm_sources = target['sources'].to_set { |file| File.join(target['path'], file) }
  unless sources == swiftpm_sources
    fail_with.call("#{name}: its #{sources.size} source files are not the #{swiftpm_sources.size} SwiftPM compiles for #{name} " \
                   "(#{Array(spec.attributes['source_files']).join(', ')}; missing #{(swiftpm_sources - sources).first(3).join(', ')}; " \
                   "extra #{(sources - swiftpm_sources).first(3).join(', ')})")
  end
  swiftpm_resources = Array(target['resources']).to_set { |resource| resource['path'].delete_prefix("#{root}/") }
  bundles = spec.attributes['resource_bundles'] || {}
  pod_resources = bundles.values.flat_map { |globs| expand.call(globs).to_a }.to_set
  Array(bundles.values).flatten.each do |glob|
    fail_with.call("#{name}: resource glob #{glob} matches nothing") if expand.call(glob).empty?
  end
  unless bundles.empty? || bundles.keys == [name]
    fail_with.call("#{name}: its resource bundle is #{bundles.keys.join(', ')}, not #{name} (what the code looks for)")
  end
  (swiftpm_resources - pod_resources).each { |file| fail_with.call("#{name}: SwiftPM's resource #{file} is in no resource bundle") }
  (pod_resources - swiftpm_resources).each { |file| fail_with.call("#{name}: resource #{file} is not one of SwiftPM's for #{name}") }
  pod_resources.reject { |file| File.file?(File.join(root, file)) }.each { |file| fail_with.call("#{name}: resource #{file} does not exist") }
  puts format('podspec: %-22s %3d Swift files, %2d resources (bundle %s), exactly as SwiftPM builds the product',
              name, sources.size, pod_resources.size, bundles.keys.first || '-')
end
fail_with.call("the pods pass different -package-name values: #{package_names.to_a.join(', ')}") if package_names.size > 1

# 2. Every library product has a pod (but those not offered), and the dependencies and imports agree.
products.each do |product|
  next if pods.key?(product['name'])
  if NOT_OFFERED.key?(product['name'])
    puts "podspec: #{product['name']}: no pod (#{NOT_OFFERED[product['name']]})"
  else
    fail_with.call("the library product #{product['name']} has no podspec #{product['name']}.podspec")
  end
end
closure = lambda do |name, seen = Set.new|
  Array(pods[name]&.dependencies).each { |dependency, _| closure.call(dependency, seen) if seen.add?(dependency) }
  seen
end
sdk_modules = pods.keys.to_set | NOT_OFFERED.keys.to_set
Pod.specs.each do |spec|
  name = spec.full_name
  next unless targets[name]

  wanted = Array(targets[name]['target_dependencies']).to_set
  declared = spec.dependencies.map(&:first).to_set
  fail_with.call("#{name}: depends on #{declared.to_a.sort.join(', ')}, SwiftPM's #{name} on #{wanted.to_a.sort.join(', ')}") unless wanted == declared
  spec.dependencies.each do |dependency, requirements|
    fail_with.call("#{name}: depends on #{dependency}, which has no podspec") unless pods.key?(dependency)
    fail_with.call("#{name}: its dependency #{dependency} is pinned to #{requirements.inspect}, not its own version") unless requirements == [spec.version]
  end
  reachable = closure.call(name)
  expand.call(spec.attributes['source_files']).each do |file|
    File.read(File.join(root, file)).scan(/^\s*(?:@_exported\s+|@_spi\(\w+\)\s+)*import\s+(\w+)\s*$/).flatten.each do |mod|
      next unless sdk_modules.include?(mod) && mod != name
      fail_with.call("#{file} imports #{mod}, a pod #{name} does not depend on") unless reachable.include?(mod)
    end
  end
end
puts "podspec: #{pods.size} pods, dependencies as Package.swift's (each pinned to its own version), " \
     "every import of an SDK module a dependency, no stub modules, one package name #{package_names.to_a.join}"

# 3. The pods in dependency order, for the compile check against Apple's SDK.
if dump_path
  order = []
  visit = lambda do |name|
    next if order.include?(name) || !pods.key?(name)

    pods[name].dependencies.each { |dependency, _| visit.call(dependency) }
    order << name
  end
  pods.keys.sort.each { |name| visit.call(name) }
  File.write(dump_path, JSON.pretty_generate(order.map do |name|
    spec = pods[name]
    { 'name' => name, 'sources' => expand.call(spec.attributes['source_files']).to_a.sort,
      'dependencies' => spec.dependencies.map(&:first), 'swift_flags' => swift_flags.call(spec),
      'swift_versions' => Array(spec.attributes['swift_versions']),
      'resource_bundles' => (spec.attributes['resource_bundles'] || {}).keys }
  end))
end

failures.each { |failure| puts "podspec: FAIL #{failure}" }
puts "podspec: #{pods.size} podspecs checked, #{failures.size} problems"
exit(failures.empty? ? 0 : 1)
