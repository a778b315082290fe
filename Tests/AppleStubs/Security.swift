// Test-only stub of Apple's Security framework: the Keychain calls of KeychainSecureStore, with the signatures of
// Apple's documentation (page beside each declaration). Not Apple's SDK.
//
// On Apple platforms CFString and CFDictionary are CoreFoundation types, toll-free bridged to NSString and
// NSDictionary; that bridge is what makes `kSecClass as String` and `query as CFDictionary` legal. Linux has no
// toll-free bridging, so the stub models the bridge with type aliases to the Foundation classes.
@_exported import Foundation

public typealias CFString = NSString
public typealias CFDictionary = NSDictionary
public typealias CFTypeRef = AnyObject
/// https://developer.apple.com/documentation/kernel/osstatus
public typealias OSStatus = Int32

/// https://developer.apple.com/documentation/security/ksecclass
public var kSecClass: CFString { "class" }
/// https://developer.apple.com/documentation/security/ksecclassgenericpassword
public var kSecClassGenericPassword: CFString { "genp" }
/// https://developer.apple.com/documentation/security/ksecattrservice
public var kSecAttrService: CFString { "svce" }
/// https://developer.apple.com/documentation/security/ksecattraccount
public var kSecAttrAccount: CFString { "acct" }
/// https://developer.apple.com/documentation/security/ksecattraccessible
public var kSecAttrAccessible: CFString { "pdmn" }
/// https://developer.apple.com/documentation/security/ksecattraccessibleafterfirstunlockthisdeviceonly
public var kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString { "cku" }
/// https://developer.apple.com/documentation/security/ksecreturndata
public var kSecReturnData: CFString { "r_Data" }
/// https://developer.apple.com/documentation/security/ksecmatchlimit
public var kSecMatchLimit: CFString { "m_Limit" }
/// https://developer.apple.com/documentation/security/ksecmatchlimitone
public var kSecMatchLimitOne: CFString { "m_LimitOne" }
/// https://developer.apple.com/documentation/security/ksecvaluedata
public var kSecValueData: CFString { "v_Data" }

/// https://developer.apple.com/documentation/security/errsecsuccess
public var errSecSuccess: OSStatus { 0 }
/// https://developer.apple.com/documentation/security/errsecitemnotfound
public var errSecItemNotFound: OSStatus { -25300 }

/// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    errSecItemNotFound
}
/// https://developer.apple.com/documentation/security/secitemadd(_:_:)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    errSecSuccess
}
/// https://developer.apple.com/documentation/security/secitemupdate(_:_:)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus { errSecSuccess }
/// https://developer.apple.com/documentation/security/secitemdelete(_:)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { errSecSuccess }
