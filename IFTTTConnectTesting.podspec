# IFTTTConnectTesting: test doubles for an app's unit tests (add it to the test target only).
# One pod per module, as SwiftPM's products: `import IFTTTConnectTesting` is the same line under both. scripts/checks/48-podspec.sh
# checks this file against Package.swift on Linux; scripts/check-ios-sdk.sh compiles the pod as CocoaPods does.
Pod::Spec.new do |s|
  s.name = 'IFTTTConnectTesting'
  s.version = '3.0.0'
  s.summary = 'Test doubles for apps using the IFTTT Connect SDK (a manual clock, a recording transport).'
  s.homepage = 'https://github.com/IFTTT/ConnectSDK-Swift'
  s.license = { :type => 'MIT', :file => 'LICENSE' }
  s.author = { 'IFTTT' => 'developers@ifttt.com' }
  s.source = { :git => 'https://github.com/IFTTT/ConnectSDK-Swift.git', :tag => s.version.to_s }
  s.module_name = 'IFTTTConnectTesting'
  s.swift_versions = ['6.0']
  s.cocoapods_version = '>= 1.13.0'
  s.ios.deployment_target = '13.0'
  s.osx.deployment_target = '12.0'
  # The modules of the SDK share one package name, as under SwiftPM (the sources use the package access level).
  s.pod_target_xcconfig = { 'OTHER_SWIFT_FLAGS' => '$(inherited) -package-name IFTTTConnectSDK' }
  s.dependency 'IFTTTConnectCore', s.version.to_s
  s.source_files = 'Sources/IFTTTConnectTesting/**/*.swift'
end
