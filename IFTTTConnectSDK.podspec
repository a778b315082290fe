# The IFTTT Connect SDK for CocoaPods (React Native apps and others that resolve iOS dependencies with CocoaPods).
#   pod 'IFTTTConnectSDK', :git => 'https://github.com/IFTTT/ConnectSDK-Swift.git', :tag => '3.0.0'   # everything
#   pod 'IFTTTConnectSDK/Core', :git => ...          # without geofences (no CoreLocation, no BackgroundTasks)
#   pod 'IFTTTConnectSDK/Legacy', :git => ...        # the legacy Applets API (IFTTTSDK)
#   pod 'IFTTTConnectSDK/Service', :git => ...       # partner backends (IFTTTConnectService)
# A private spec repo takes it with `pod repo push YOUR-SPECS IFTTTConnectSDK.podspec`; `:path => '../ConnectSDK-Swift'`
# works for a local checkout. The subspecs are the SwiftPM products of Package.swift, file for file; under CocoaPods
# they compile into one module, `IFTTTConnectSDK`, which is what apps import. scripts/checks/48-podspec.sh checks this
# file against Package.swift on Linux (globs, resources, versions, deployment targets).
Pod::Spec.new do |s|
  s.name = 'IFTTTConnectSDK'
  s.version = '3.0.0'
  s.summary = 'Connect your iOS app to IFTTT: the Connect button, activation, geofences and the legacy Applets API.'
  s.description = <<~DESC
    The IFTTT Connect SDK for Swift, successor of ConnectSDK-iOS 2.8: a 2.8 app compiles unchanged. Foundation only,
    no third-party dependencies. The default subspec is the whole 2.8 API (Core and Location).
  DESC
  s.homepage = 'https://github.com/IFTTT/ConnectSDK-Swift'
  s.license = { :type => 'MIT', :text => 'See the repository.' }
  s.author = { 'IFTTT' => 'developers@ifttt.com' }
  s.source = { :git => 'https://github.com/IFTTT/ConnectSDK-Swift.git', :tag => s.version.to_s }
  s.module_name = 'IFTTTConnectSDK'
  s.swift_versions = ['6.0']
  s.cocoapods_version = '>= 1.13.0'
  s.ios.deployment_target = '13.0'
  s.osx.deployment_target = '12.0'
  s.preserve_paths = 'CocoaPods/ModuleStubs/*'
  s.pod_target_xcconfig = {
    'SWIFT_INCLUDE_PATHS' => '$(inherited) "${PODS_TARGET_SRCROOT}/CocoaPods/ModuleStubs"',
    'OTHER_SWIFT_FLAGS' => '$(inherited) -package-name IFTTTConnectSDK',
  }
  s.default_subspecs = 'Umbrella'

  # IFTTTConnectCore: connections, the Connect button, activation, analytics. Its strings and privacy manifest are the
  # resource bundle IFTTTConnectCore.bundle, which ConnectResources (Support/ResourceBundle.swift) finds.
  s.subspec 'Core' do |core|
    core.source_files = 'Sources/IFTTTConnectCore/**/*.swift'
    core.resource_bundles = {
      'IFTTTConnectCore' => ['Sources/IFTTTConnectCore/Resources/*.lproj/*.strings', 'Sources/IFTTTConnectCore/PrivacyInfo.xcprivacy'],
    }
    core.frameworks = 'Foundation'
  end

  # IFTTTConnectLocation: geofences (CoreLocation, BackgroundTasks on iOS).
  s.subspec 'Location' do |location|
    location.dependency 'IFTTTConnectSDK/Core'
    location.source_files = 'Sources/IFTTTConnectLocation/**/*.swift'
    location.resource_bundles = { 'IFTTTConnectLocation' => ['Sources/IFTTTConnectLocation/PrivacyInfo.xcprivacy'] }
    location.ios.frameworks = 'CoreLocation', 'BackgroundTasks'
  end

  # IFTTTSDK: the legacy Applets API.
  s.subspec 'Legacy' do |legacy|
    legacy.dependency 'IFTTTConnectSDK/Core'
    legacy.source_files = 'Sources/IFTTTSDK/**/*.swift'
    legacy.resource_bundles = { 'IFTTTSDK' => ['Sources/IFTTTSDK/PrivacyInfo.xcprivacy'] }
  end

  # IFTTTConnectService: partner backends holding the service key.
  s.subspec 'Service' do |service|
    service.dependency 'IFTTTConnectSDK/Core'
    service.source_files = 'Sources/IFTTTConnectService/**/*.swift'
    service.resource_bundles = { 'IFTTTConnectService' => ['Sources/IFTTTConnectService/PrivacyInfo.xcprivacy'] }
  end

  # The umbrella, the default: the whole 2.8 API, as `import IFTTTConnectSDK` gives it under SwiftPM.
  s.subspec 'Umbrella' do |umbrella|
    umbrella.dependency 'IFTTTConnectSDK/Core'
    umbrella.dependency 'IFTTTConnectSDK/Location'
    umbrella.source_files = 'Sources/IFTTTConnectSDK/**/*.swift'
  end
end
