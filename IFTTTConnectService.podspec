# IFTTTConnectService: partner backends holding the service key.
# One pod per module, as SwiftPM's products: `import IFTTTConnectService` is the same line under both. scripts/checks/48-podspec.sh
# checks this file against Package.swift on Linux; scripts/check-ios-sdk.sh compiles the pod as CocoaPods does.
Pod::Spec.new do |s|
  s.name = 'IFTTTConnectService'
  s.version = '3.0.0'
  s.summary = 'IFTTT Connect API calls for partner backends holding the service key.'
  s.homepage = 'https://github.com/IFTTT/ConnectSDK-Swift'
  s.license = { :type => 'MIT', :file => 'LICENSE' }
  s.author = { 'IFTTT' => 'developers@ifttt.com' }
  s.source = { :git => 'https://github.com/IFTTT/ConnectSDK-Swift.git', :tag => s.version.to_s }
  s.module_name = 'IFTTTConnectService'
  s.swift_versions = ['6.0']
  s.cocoapods_version = '>= 1.13.0'
  s.ios.deployment_target = '13.0'
  s.osx.deployment_target = '12.0'
  # The modules of the SDK share one package name, as under SwiftPM (the sources use the package access level).
  s.pod_target_xcconfig = { 'OTHER_SWIFT_FLAGS' => '$(inherited) -package-name IFTTTConnectSDK' }
  s.dependency 'IFTTTConnectCore', s.version.to_s
  s.source_files = 'Sources/IFTTTConnectService/**/*.swift'
  s.resource_bundles = { 'IFTTTConnectService' => ['Sources/IFTTTConnectService/PrivacyInfo.xcprivacy'] }
end
