// Writes and checks the Xcode projects of the example apps (Examples/<app>/GroceryExpress.xcodeproj).
//
//   example-projects generate ROOT              writes each project from the app's folder: every Swift file of
//                                               GroceryExpress/ in the Sources phase, PrivacyInfo.xcprivacy in the
//                                               Resources phase, the SDK package by local path (../..) and its products
//   example-projects check ROOT PACKAGE_JSON    fails unless each checked-in project is what generate writes, and checks
//                                               the project as Xcode would read it, without trusting the generator:
//                                               it parses project.pbxproj (an OpenStep property list), resolves every
//                                               object reference and its isa, walks the groups to each file on disk,
//                                               compares the build phases with the app's folder, and checks the
//                                               package reference, products and build settings; then it checks each
//                                               Info.plist against the keys the Getting Started article tells
//                                               integrators to add (one copy: no other article lists them).
//
// Object identifiers are 24 hex digits derived from the object's role, so generating twice gives the same bytes.
import Foundation

struct ExampleApp {
    /// The folder of the app, relative to the repository: Examples/GroceryExpress-UIKit.
    let folder: String
    let bundleIdentifier: String
    let deploymentTarget: String
    /// Whether Xcode generates a scene manifest (a SwiftUI App); the UIKit app creates its window itself.
    let sceneManifest: Bool
    let products: [String]
    let name = "GroceryExpress"
}

let apps = [
    ExampleApp(
        folder: "Examples/GroceryExpress-UIKit", bundleIdentifier: "com.example.GroceryExpress.UIKit",
        deploymentTarget: "15.0", sceneManifest: false, products: ["IFTTTConnectSDK"]),
    ExampleApp(
        folder: "Examples/GroceryExpress-SwiftUI", bundleIdentifier: "com.example.GroceryExpress.SwiftUI",
        deploymentTarget: "16.0", sceneManifest: true, products: ["IFTTTConnectSDK"]),
]

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Writing

/// A 24-digit object identifier derived from `role` (two FNV-1a hashes).
func objectID(_ role: String) -> String {
    func fnv(_ text: String, _ basis: UInt64) -> UInt64 {
        var hash = basis
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
    let high = fnv(role, 0xcbf2_9ce4_8422_2325)
    let low = fnv(role + "#", 0x8422_2325_cbf2_9ce4) >> 32
    return String(format: "%016llX%08llX", high, low)
}

/// A value as Xcode writes it: bare when it is only letters, digits and `_./`, else quoted.
func quoted(_ value: String) -> String {
    let bare =
        !value.isEmpty
        && value.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "_./".unicodeScalars.contains($0)
        }
    if bare && value.unicodeScalars.allSatisfy(\.isASCII) { return value }
    let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    return "\"\(escaped)\""
}

/// The files of an app's folder that the project lists.
struct AppFiles {
    let swift: [String]  // relative to the app's GroceryExpress/ folder
    let resources: [String]

    init(root: URL, app: ExampleApp) throws {
        let folder = root.appendingPathComponent(app.folder).appendingPathComponent(app.name)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        swift = names.filter { $0.hasSuffix(".swift") }
        resources = names.filter { $0 == "PrivacyInfo.xcprivacy" || $0.hasSuffix(".xcassets") }
        if let other = names.first(where: { !swift.contains($0) && !resources.contains($0) && !$0.hasPrefix(".") }) {
            throw Failure("\(app.folder)/\(app.name)/\(other): the generator does not know where this file goes")
        }
    }
}

func fileType(_ name: String) -> String {
    if name.hasSuffix(".swift") { return "sourcecode.swift" }
    if name.hasSuffix(".plist") { return "text.plist.xml" }
    if name.hasSuffix(".xcprivacy") { return "text.xml" }
    if name.hasSuffix(".xcassets") { return "folder.assetcatalog" }
    return "text"
}

func projectText(_ app: ExampleApp, files: AppFiles) -> String {
    let id = { (role: String) in objectID("\(app.folder)|\(role)") }
    let packageComment = "XCLocalSwiftPackageReference \"../..\""
    var sections: [String: [(id: String, text: String)]] = [:]
    func add(_ isa: String, _ identifier: String, _ text: String) {
        sections[isa, default: []].append((identifier, text))
    }
    func list(_ items: [(String, String)], indent: String) -> String {
        items.map { "\(indent)\t\($0.0) /* \($0.1) */,\n" }.joined()
    }

    // Files and their build files.
    for name in files.swift + files.resources {
        let phase = name.hasSuffix(".swift") ? "Sources" : "Resources"
        add(
            "PBXBuildFile", id("build:\(name)"),
            "\t\t\(id("build:\(name)")) /* \(name) in \(phase) */ = {isa = PBXBuildFile; fileRef = \(id("file:\(name)")) /* \(name) */; };\n"
        )
        add(
            "PBXFileReference", id("file:\(name)"),
            "\t\t\(id("file:\(name)")) /* \(name) */ = {isa = PBXFileReference; lastKnownFileType = \(fileType(name)); path = \(quoted(name)); sourceTree = \"<group>\"; };\n"
        )
    }
    for product in app.products {
        add(
            "PBXBuildFile", id("build:product:\(product)"),
            "\t\t\(id("build:product:\(product)")) /* \(product) in Frameworks */ = {isa = PBXBuildFile; productRef = \(id("product:\(product)")) /* \(product) */; };\n"
        )
        add(
            "XCSwiftPackageProductDependency", id("product:\(product)"),
            """
            \t\t\(id("product:\(product)")) /* \(product) */ = {
            \t\t\tisa = XCSwiftPackageProductDependency;
            \t\t\tpackage = \(id("package")) /* \(packageComment) */;
            \t\t\tproductName = \(product);
            \t\t};

            """)
    }
    add(
        "PBXFileReference", id("file:Info.plist"),
        "\t\t\(id("file:Info.plist")) /* Info.plist */ = {isa = PBXFileReference; lastKnownFileType = text.plist.xml; path = Info.plist; sourceTree = \"<group>\"; };\n"
    )
    add(
        "PBXFileReference", id("file:app"),
        "\t\t\(id("file:app")) /* \(app.name).app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = \(app.name).app; sourceTree = BUILT_PRODUCTS_DIR; };\n"
    )

    // Build phases.
    func phase(_ isa: String, _ role: String, _ comment: String, _ members: [(String, String)]) {
        add(
            isa, id(role),
            """
            \t\t\(id(role)) /* \(comment) */ = {
            \t\t\tisa = \(isa);
            \t\t\tbuildActionMask = 2147483647;
            \t\t\tfiles = (
            \(list(members, indent: "\t\t\t"))\t\t\t);
            \t\t\trunOnlyForDeploymentPostprocessing = 0;
            \t\t};

            """)
    }
    phase(
        "PBXSourcesBuildPhase", "phase:sources", "Sources",
        files.swift.map { (id("build:\($0)"), "\($0) in Sources") })
    phase(
        "PBXFrameworksBuildPhase", "phase:frameworks", "Frameworks",
        app.products.map { (id("build:product:\($0)"), "\($0) in Frameworks") })
    phase(
        "PBXResourcesBuildPhase", "phase:resources", "Resources",
        files.resources.map { (id("build:\($0)"), "\($0) in Resources") })

    // Groups: the main group holds the app's folder, Info.plist and Products.
    func group(_ role: String, _ comment: String, _ children: [(String, String)], path: String?) {
        let pathLine = path.map { "\t\t\tpath = \(quoted($0));\n" } ?? ""
        add(
            "PBXGroup", id(role),
            """
            \t\t\(id(role))\(comment.isEmpty ? "" : " /* \(comment) */") = {
            \t\t\tisa = PBXGroup;
            \t\t\tchildren = (
            \(list(children, indent: "\t\t\t"))\t\t\t);
            \(pathLine)\t\t\tsourceTree = "<group>";
            \t\t};

            """)
    }
    group(
        "group:main", "",
        [(id("group:app"), app.name), (id("file:Info.plist"), "Info.plist"), (id("group:products"), "Products")],
        path: nil)
    group(
        "group:app", app.name, (files.swift + files.resources).map { (id("file:\($0)"), $0) }, path: app.name)
    group("group:products", "Products", [(id("file:app"), "\(app.name).app")], path: nil)

    // The target and the project.
    add(
        "PBXNativeTarget", id("target"),
        """
        \t\t\(id("target")) /* \(app.name) */ = {
        \t\t\tisa = PBXNativeTarget;
        \t\t\tbuildConfigurationList = \(id("configurations:target")) /* Build configuration list for PBXNativeTarget "\(app.name)" */;
        \t\t\tbuildPhases = (
        \t\t\t\t\(id("phase:sources")) /* Sources */,
        \t\t\t\t\(id("phase:frameworks")) /* Frameworks */,
        \t\t\t\t\(id("phase:resources")) /* Resources */,
        \t\t\t);
        \t\t\tbuildRules = (
        \t\t\t);
        \t\t\tdependencies = (
        \t\t\t);
        \t\t\tname = \(app.name);
        \t\t\tpackageProductDependencies = (
        \(list(app.products.map { (id("product:\($0)"), $0) }, indent: "\t\t\t"))\t\t\t);
        \t\t\tproductName = \(app.name);
        \t\t\tproductReference = \(id("file:app")) /* \(app.name).app */;
        \t\t\tproductType = "com.apple.product-type.application";
        \t\t};

        """)
    add(
        "PBXProject", id("project"),
        """
        \t\t\(id("project")) /* Project object */ = {
        \t\t\tisa = PBXProject;
        \t\t\tattributes = {
        \t\t\t\tBuildIndependentTargetsInParallel = 1;
        \t\t\t\tLastSwiftUpdateCheck = 1600;
        \t\t\t\tLastUpgradeCheck = 1600;
        \t\t\t\tTargetAttributes = {
        \t\t\t\t\t\(id("target")) = {
        \t\t\t\t\t\tCreatedOnToolsVersion = 16.0;
        \t\t\t\t\t};
        \t\t\t\t};
        \t\t\t};
        \t\t\tbuildConfigurationList = \(id("configurations:project")) /* Build configuration list for PBXProject "\(app.name)" */;
        \t\t\tcompatibilityVersion = "Xcode 15.0";
        \t\t\tdevelopmentRegion = en;
        \t\t\thasScannedForEncodings = 0;
        \t\t\tknownRegions = (
        \t\t\t\ten,
        \t\t\t\tBase,
        \t\t\t);
        \t\t\tmainGroup = \(id("group:main"));
        \t\t\tpackageReferences = (
        \t\t\t\t\(id("package")) /* \(packageComment) */,
        \t\t\t);
        \t\t\tproductRefGroup = \(id("group:products")) /* Products */;
        \t\t\tprojectDirPath = "";
        \t\t\tprojectRoot = "";
        \t\t\ttargets = (
        \t\t\t\t\(id("target")) /* \(app.name) */,
        \t\t\t);
        \t\t};

        """)
    add(
        "XCLocalSwiftPackageReference", id("package"),
        """
        \t\t\(id("package")) /* \(packageComment) */ = {
        \t\t\tisa = XCLocalSwiftPackageReference;
        \t\t\trelativePath = ../..;
        \t\t};

        """)

    // Build settings: the project's are Xcode's defaults for a new iOS app; the target's make the app.
    func settings(_ values: [(String, String)]) -> String {
        values.sorted { $0.0 < $1.0 }.map { "\t\t\t\t\($0.0) = \($0.1);\n" }.joined()
    }
    let projectCommon: [(String, String)] = [
        ("ALWAYS_SEARCH_USER_PATHS", "NO"), ("CLANG_ENABLE_MODULES", "YES"), ("CLANG_ENABLE_OBJC_ARC", "YES"),
        ("COPY_PHASE_STRIP", "NO"), ("ENABLE_STRICT_OBJC_MSGSEND", "YES"), ("ENABLE_USER_SCRIPT_SANDBOXING", "YES"),
        ("GCC_C_LANGUAGE_STANDARD", "gnu17"), ("IPHONEOS_DEPLOYMENT_TARGET", app.deploymentTarget),
        ("LOCALIZATION_PREFERS_STRING_CATALOGS", "YES"), ("SDKROOT", "iphoneos"),
    ]
    let projectDebug: [(String, String)] = [
        ("DEBUG_INFORMATION_FORMAT", "dwarf"), ("ENABLE_TESTABILITY", "YES"), ("GCC_OPTIMIZATION_LEVEL", "0"),
        ("GCC_PREPROCESSOR_DEFINITIONS", "(\n\t\t\t\t\t\"DEBUG=1\",\n\t\t\t\t\t\"$(inherited)\",\n\t\t\t\t)"),
        ("ONLY_ACTIVE_ARCH", "YES"), ("SWIFT_ACTIVE_COMPILATION_CONDITIONS", "\"DEBUG $(inherited)\""),
        ("SWIFT_OPTIMIZATION_LEVEL", "\"-Onone\""),
    ]
    let projectRelease: [(String, String)] = [
        ("DEBUG_INFORMATION_FORMAT", "\"dwarf-with-dsym\""), ("ENABLE_NS_ASSERTIONS", "NO"),
        ("SWIFT_COMPILATION_MODE", "wholemodule"), ("VALIDATE_PRODUCT", "YES"),
    ]
    let target: [(String, String)] = [
        ("CODE_SIGN_STYLE", "Automatic"), ("CURRENT_PROJECT_VERSION", "1"), ("GENERATE_INFOPLIST_FILE", "YES"),
        ("INFOPLIST_FILE", "Info.plist"), ("INFOPLIST_KEY_CFBundleDisplayName", "\"Grocery Express\""),
        ("INFOPLIST_KEY_UIApplicationSceneManifest_Generation", app.sceneManifest ? "YES" : "NO"),
        ("INFOPLIST_KEY_UILaunchScreen_Generation", "YES"),
        (
            "INFOPLIST_KEY_UISupportedInterfaceOrientations_iPad",
            "\"UIInterfaceOrientationPortrait UIInterfaceOrientationPortraitUpsideDown UIInterfaceOrientationLandscapeLeft UIInterfaceOrientationLandscapeRight\""
        ),
        (
            "INFOPLIST_KEY_UISupportedInterfaceOrientations_iPhone",
            "\"UIInterfaceOrientationPortrait UIInterfaceOrientationLandscapeLeft UIInterfaceOrientationLandscapeRight\""
        ),
        (
            "LD_RUNPATH_SEARCH_PATHS",
            "(\n\t\t\t\t\t\"$(inherited)\",\n\t\t\t\t\t\"@executable_path/Frameworks\",\n\t\t\t\t)"
        ),
        ("MARKETING_VERSION", "1.0"), ("PRODUCT_BUNDLE_IDENTIFIER", app.bundleIdentifier),
        ("PRODUCT_NAME", "\"$(TARGET_NAME)\""), ("SWIFT_EMIT_LOC_STRINGS", "YES"), ("SWIFT_VERSION", "6.0"),
        ("TARGETED_DEVICE_FAMILY", "\"1,2\""),
    ]
    func configuration(_ role: String, _ name: String, _ values: [(String, String)]) {
        add(
            "XCBuildConfiguration", id(role),
            """
            \t\t\(id(role)) /* \(name) */ = {
            \t\t\tisa = XCBuildConfiguration;
            \t\t\tbuildSettings = {
            \(settings(values))\t\t\t};
            \t\t\tname = \(name);
            \t\t};

            """)
    }
    configuration("configuration:project:Debug", "Debug", projectCommon + projectDebug)
    configuration("configuration:project:Release", "Release", projectCommon + projectRelease)
    configuration("configuration:target:Debug", "Debug", target)
    configuration("configuration:target:Release", "Release", target)
    func configurationList(_ role: String, _ owner: String) {
        add(
            "XCConfigurationList", id("configurations:\(role)"),
            """
            \t\t\(id("configurations:\(role)")) /* Build configuration list for \(owner) "\(app.name)" */ = {
            \t\t\tisa = XCConfigurationList;
            \t\t\tbuildConfigurations = (
            \t\t\t\t\(id("configuration:\(role):Debug")) /* Debug */,
            \t\t\t\t\(id("configuration:\(role):Release")) /* Release */,
            \t\t\t);
            \t\t\tdefaultConfigurationIsVisible = 0;
            \t\t\tdefaultConfigurationName = Release;
            \t\t};

            """)
    }
    configurationList("project", "PBXProject")
    configurationList("target", "PBXNativeTarget")

    var text = "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 60;\n\tobjects = {\n"
    for isa in sections.keys.sorted() {
        text += "\n/* Begin \(isa) section */\n"
        for entry in sections[isa]!.sorted(by: { $0.id < $1.id }) { text += entry.text }
        text += "/* End \(isa) section */\n"
    }
    text += "\t};\n\trootObject = \(id("project")) /* Project object */;\n}\n"
    return text
}

let workspaceText = """
    <?xml version="1.0" encoding="UTF-8"?>
    <Workspace
       version = "1.0">
       <FileRef
          location = "self:">
       </FileRef>
    </Workspace>

    """

/// The files generate writes for an app, relative to the repository, and their text.
func generatedFiles(root: URL, app: ExampleApp) throws -> [(path: String, text: String)] {
    let project = "\(app.folder)/\(app.name).xcodeproj"
    return [
        ("\(project)/project.pbxproj", projectText(app, files: try AppFiles(root: root, app: app))),
        ("\(project)/project.xcworkspace/contents.xcworkspacedata", workspaceText),
    ]
}

// MARK: - Checking the project as Xcode reads it

typealias Object = [String: Any]

/// Structural problems of one parsed project.pbxproj, which lives in `projectFolder` (the app's folder).
func projectProblems(
    _ text: String, app: ExampleApp, root: URL, packageProducts: Set<String>, minimumIOS: Double
) -> [String] {
    var problems: [String] = []
    guard let plist = try? PropertyListSerialization.propertyList(from: Data(text.utf8), format: nil) as? Object
    else { return ["project.pbxproj is not an OpenStep property list"] }
    guard let objects = plist["objects"] as? [String: Object], let rootID = plist["rootObject"] as? String else {
        return ["project.pbxproj has no objects or rootObject"]
    }
    if plist["archiveVersion"] as? String != "1" { problems.append("archiveVersion is not 1") }
    // XCLocalSwiftPackageReference needs objectVersion 60 (Xcode 15) or later.
    if Int(plist["objectVersion"] as? String ?? "") ?? 0 < 60 { problems.append("objectVersion is below 60") }
    for (identifier, entry) in objects {
        if identifier.count != 24 || !identifier.allSatisfy(\.isHexDigit) {
            problems.append("\(identifier) is not a 24-digit identifier")
        }
        if entry["isa"] as? String == nil { problems.append("\(identifier) has no isa") }
    }
    var reached: Set<String> = [rootID]
    var parents: [String: String] = [:]  // child -> group
    /// The object `reference` points to, which must have one of `isas`.
    func object(_ reference: Any?, _ isas: [String], from owner: String, _ key: String) -> (String, Object)? {
        guard let identifier = reference as? String else {
            problems.append("\(owner).\(key) is missing")
            return nil
        }
        guard let target = objects[identifier] else {
            problems.append("\(owner).\(key) points to \(identifier), which does not exist")
            return nil
        }
        let isa = target["isa"] as? String ?? "?"
        guard isas.contains(isa) else {
            problems.append("\(owner).\(key) points to a \(isa), expected \(isas.joined(separator: " or "))")
            return nil
        }
        reached.insert(identifier)
        return (identifier, target)
    }
    func objectList(_ list: Any?, _ isas: [String], from owner: String, _ key: String) -> [(String, Object)] {
        guard let references = list as? [Any] else {
            problems.append("\(owner).\(key) is not a list")
            return []
        }
        return references.compactMap { object($0, isas, from: owner, key) }
    }

    guard let (_, project) = object(rootID, ["PBXProject"], from: "rootObject", "") else { return problems }
    // Groups, down to each file, with its path on disk.
    let appFolder = root.appendingPathComponent(app.folder)
    var filePaths: [String: URL] = [:]
    func walk(_ identifier: String, _ group: Object, folder: URL) {
        let here = (group["path"] as? String).map { folder.appendingPathComponent($0) } ?? folder
        for (child, item) in objectList(
            group["children"], ["PBXGroup", "PBXFileReference"], from: identifier, "children")
        {
            if let parent = parents[child] { problems.append("\(child) is in two groups (\(parent), \(identifier))") }
            parents[child] = identifier
            if item["isa"] as? String == "PBXGroup" {
                walk(child, item, folder: here)
                continue
            }
            guard let path = item["path"] as? String else {
                problems.append("file \(child) has no path")
                continue
            }
            switch item["sourceTree"] as? String {
            case "<group>": filePaths[child] = here.appendingPathComponent(path)
            case "SOURCE_ROOT": filePaths[child] = appFolder.appendingPathComponent(path)
            case "BUILT_PRODUCTS_DIR": continue
            default: problems.append("file \(path) has a sourceTree this check does not resolve")
            }
        }
    }
    if let (mainID, main) = object(project["mainGroup"], ["PBXGroup"], from: "PBXProject", "mainGroup") {
        walk(mainID, main, folder: appFolder)
    }
    for (identifier, url) in filePaths where !FileManager.default.fileExists(atPath: url.path) {
        problems.append(
            "file reference \(identifier) points to \(url.path.dropFirst(root.path.count + 1)), which does not exist")
    }
    _ = object(project["productRefGroup"], ["PBXGroup"], from: "PBXProject", "productRefGroup")
    if let (_, list) = object(
        project["buildConfigurationList"], ["XCConfigurationList"], from: "PBXProject", "buildConfigurationList")
    {
        _ = objectList(list["buildConfigurations"], ["XCBuildConfiguration"], from: "project", "buildConfigurations")
    }
    // The package: a local path to the SDK, whose products the target links.
    var packages: [String: Object] = [:]
    for (identifier, package) in objectList(
        project["packageReferences"], ["XCLocalSwiftPackageReference"], from: "PBXProject", "packageReferences")
    {
        packages[identifier] = package
        let path = package["relativePath"] as? String ?? ""
        let manifest = appFolder.appendingPathComponent(path).appendingPathComponent("Package.swift")
        if manifest.standardizedFileURL.path != root.appendingPathComponent("Package.swift").standardizedFileURL.path {
            problems.append("the package reference \(path) is not the SDK's package (../.. from the app's folder)")
        }
    }
    let targets = objectList(project["targets"], ["PBXNativeTarget"], from: "PBXProject", "targets")
    if targets.count != 1 { problems.append("the project has \(targets.count) targets, expected 1") }
    for (targetID, target) in targets {
        if target["productType"] as? String != "com.apple.product-type.application" {
            problems.append("target \(targetID) is not an application")
        }
        _ = object(target["productReference"], ["PBXFileReference"], from: "target", "productReference")
        var linked: Set<String> = []
        for (_, dependency) in objectList(
            target["packageProductDependencies"], ["XCSwiftPackageProductDependency"], from: "target",
            "packageProductDependencies")
        {
            let name = dependency["productName"] as? String ?? "?"
            linked.insert(name)
            if !packageProducts.contains(name) { problems.append("the SDK package has no product \(name)") }
            if let (packageID, _) = object(
                dependency["package"], ["XCLocalSwiftPackageReference"], from: name, "package"),
                packages[packageID] == nil
            {
                problems.append("product \(name) comes from a package the project does not list")
            }
        }
        // Build phases: every Swift file of the app's folder compiled once, resources copied, products linked.
        var phaseFiles: [String: [String]] = [:]
        var frameworkProducts: Set<String> = []
        for (phaseID, phase) in objectList(
            target["buildPhases"], ["PBXSourcesBuildPhase", "PBXFrameworksBuildPhase", "PBXResourcesBuildPhase"],
            from: "target", "buildPhases")
        {
            let isa = phase["isa"] as! String
            if phaseFiles[isa] != nil { problems.append("two \(isa) phases") }
            phaseFiles[isa] = []
            for (buildID, build) in objectList(phase["files"], ["PBXBuildFile"], from: phaseID, "files") {
                if let reference = build["fileRef"] {
                    guard let (fileID, _) = object(reference, ["PBXFileReference"], from: buildID, "fileRef") else {
                        continue
                    }
                    guard let url = filePaths[fileID] else {
                        problems.append("build file \(buildID) uses a file that is in no group")
                        continue
                    }
                    phaseFiles[isa]!.append(url.lastPathComponent)
                } else if let (_, product) = object(
                    build["productRef"], ["XCSwiftPackageProductDependency"], from: buildID, "productRef")
                {
                    if isa != "PBXFrameworksBuildPhase" { problems.append("a package product in the \(isa)") }
                    frameworkProducts.insert(product["productName"] as? String ?? "?")
                }
            }
        }
        let folder = appFolder.appendingPathComponent(app.name)
        let onDisk = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let swiftOnDisk = onDisk.filter { $0.hasSuffix(".swift") }.sorted()
        let compiled = phaseFiles["PBXSourcesBuildPhase"] ?? []
        if compiled.sorted() != swiftOnDisk {
            problems.append(
                "the Sources phase compiles \(compiled.sorted()), the app's folder has \(swiftOnDisk)")
        }
        if Set(compiled).count != compiled.count { problems.append("a Swift file is compiled twice") }
        let copied = phaseFiles["PBXResourcesBuildPhase"] ?? []
        if onDisk.contains("PrivacyInfo.xcprivacy") && !copied.contains("PrivacyInfo.xcprivacy") {
            problems.append("the app's PrivacyInfo.xcprivacy is not in the Resources phase")
        }
        if copied.contains("Info.plist") { problems.append("Info.plist is copied as a resource") }
        if frameworkProducts != linked {
            problems.append(
                "the Frameworks phase links \(frameworkProducts.sorted()), the target depends on \(linked.sorted())")
        }
        // Build settings of both configurations.
        if let (_, list) = object(
            target["buildConfigurationList"], ["XCConfigurationList"], from: "target", "buildConfigurationList")
        {
            let configurations = objectList(
                list["buildConfigurations"], ["XCBuildConfiguration"], from: "target", "buildConfigurations")
            let names = configurations.compactMap { $0.1["name"] as? String }.sorted()
            if names != ["Debug", "Release"] { problems.append("target configurations are \(names)") }
            if let name = list["defaultConfigurationName"] as? String, !names.contains(name) {
                problems.append("the default configuration \(name) does not exist")
            }
            for (_, configuration) in configurations {
                let name = configuration["name"] as? String ?? "?"
                let settings = configuration["buildSettings"] as? Object ?? [:]
                func setting(_ key: String) -> String? { settings[key] as? String }
                if let file = setting("INFOPLIST_FILE") {
                    if !FileManager.default.fileExists(atPath: appFolder.appendingPathComponent(file).path) {
                        problems.append("\(name): INFOPLIST_FILE \(file) does not exist")
                    }
                } else {
                    problems.append("\(name): no INFOPLIST_FILE")
                }
                if setting("GENERATE_INFOPLIST_FILE") != "YES" {
                    problems.append(
                        "\(name): GENERATE_INFOPLIST_FILE must be YES (Info.plist holds only the added keys)")
                }
                if (setting("PRODUCT_BUNDLE_IDENTIFIER") ?? "").isEmpty {
                    problems.append("\(name): no bundle identifier")
                }
                if setting("SWIFT_VERSION") == nil { problems.append("\(name): no SWIFT_VERSION") }
                let deployment = Double(setting("IPHONEOS_DEPLOYMENT_TARGET") ?? "") ?? 0
                if deployment != 0 && deployment < minimumIOS {
                    problems.append("\(name): IPHONEOS_DEPLOYMENT_TARGET is below the package's iOS \(minimumIOS)")
                }
            }
        }
    }
    for identifier in objects.keys.sorted() where !reached.contains(identifier) {
        problems.append("\(identifier) (\(objects[identifier]!["isa"] as? String ?? "?")) is not referenced")
    }
    return problems
}

// MARK: - Info.plist keys against the Getting Started articles

let articles = [
    "Sources/IFTTTConnectCore/IFTTTConnectCore.docc/GettingStarted.md"
]

/// The articles, other than ``articles``, that hold a copy of the keys (a `<key>CFBundleURLTypes</key>` line): the
/// keys are listed once, and the other articles point to that list.
func copiesOfTheKeys(root: URL) -> [String] {
    let sources = root.appendingPathComponent("Sources")
    guard let walker = FileManager.default.enumerator(atPath: sources.path) else { return [] }
    var copies: [String] = []
    while let path = walker.nextObject() as? String {
        let article = "Sources/" + path
        guard article.hasSuffix(".md"), article.contains(".docc/"), !articles.contains(article) else { continue }
        let text = (try? String(contentsOf: root.appendingPathComponent(article), encoding: .utf8)) ?? ""
        if text.contains("<key>CFBundleURLTypes</key>") { copies.append(article) }
    }
    return copies.sorted()
}
let keysHeading = "## Add the keys to Info.plist"

/// The ```xml block under the keys heading of an article, as a property list dictionary.
func documentedKeys(root: URL, article: String) throws -> (text: String, keys: NSDictionary) {
    let text = try String(contentsOf: root.appendingPathComponent(article), encoding: .utf8)
    guard let heading = text.range(of: "\n\(keysHeading)\n") else {
        throw Failure("\(article) has no \"\(keysHeading)\"")
    }
    let rest = text[heading.upperBound...]
    guard let open = rest.range(of: "```xml\n"), let close = rest[open.upperBound...].range(of: "\n```") else {
        throw Failure("\(article): no ```xml block under \"\(keysHeading)\"")
    }
    let snippet = String(rest[open.upperBound..<close.lowerBound])
    let wrapped =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(snippet)\n</dict>\n</plist>\n"
    guard
        let keys = try? PropertyListSerialization.propertyList(from: Data(wrapped.utf8), format: nil) as? NSDictionary
    else { throw Failure("\(article): the keys under \"\(keysHeading)\" are not a property list fragment") }
    return (snippet, keys)
}

/// Deep equality of property list values (strings, booleans, numbers, arrays, dictionaries).
func same(_ a: Any?, _ b: Any?) -> Bool {
    switch (a, b) {
    case (let x as String, let y as String): return x == y
    case (let x as Bool, let y as Bool): return x == y
    case (let x as Int, let y as Int): return x == y
    case (let x as [Any], let y as [Any]): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (let x as NSDictionary, let y as NSDictionary):
        let xKeys = Set(x.allKeys.compactMap { $0 as? String })
        return xKeys == Set(y.allKeys.compactMap { $0 as? String }) && xKeys.allSatisfy { same(x[$0], y[$0]) }
    case (let x as [String: Any], let y as [String: Any]):
        return Set(x.keys) == Set(y.keys) && x.keys.allSatisfy { same(x[$0], y[$0]) }
    default: return false
    }
}

/// Keys the example apps add beyond the Getting Started articles, with their exact values: only so that they run
/// against the local sandbox (`http://127.0.0.1:8080` or a LAN address), which App Transport Security blocks
/// without `NSAllowsLocalNetworking` (IP-address connections since iOS 17). An integrator's app does not need them.
func exampleOnlyKeys() -> [String: NSDictionary] {
    ["NSAppTransportSecurity": ["NSAllowsLocalNetworking": true] as NSDictionary]
}

func infoPlistProblems(root: URL, app: ExampleApp, documented: NSDictionary) -> [String] {
    let url = root.appendingPathComponent(app.folder).appendingPathComponent("Info.plist")
    guard let data = try? Data(contentsOf: url),
        let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? NSDictionary
    else { return ["Info.plist is missing or not a property list"] }
    var problems: [String] = []
    let documentedKeys = Set(documented.allKeys.compactMap { $0 as? String })
    let keys = Set(plist.allKeys.compactMap { $0 as? String })
    for key in documentedKeys.subtracting(keys).sorted() {
        problems.append("Info.plist lacks \(key), which the docs list")
    }
    for key in keys.subtracting(documentedKeys).subtracting(exampleOnlyKeys().keys).sorted() {
        problems.append("Info.plist has \(key), which the docs do not list")
    }
    for (key, value) in exampleOnlyKeys().sorted(by: { $0.key < $1.key }) where !same(plist[key], value) {
        problems.append("Info.plist's \(key) is not the example's own \(value)")
    }
    for key in documentedKeys.intersection(keys).sorted() where !same(plist[key], documented[key]) {
        problems.append("Info.plist's \(key) differs from the docs")
    }
    // The redirect URL's scheme, as the app's code spells it, must be a URL scheme of the app.
    let folder = root.appendingPathComponent(app.folder).appendingPathComponent(app.name)
    let code = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
        $0.hasSuffix(".swift")
    }
    .compactMap { try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
    guard
        let match = code.range(
            of: #"redirectURL = URL\(string: "[A-Za-z][A-Za-z0-9+.-]*://"#, options: .regularExpression)
    else { return problems + ["no `redirectURL = URL(string: \"scheme://...\")` in the app's code"] }
    let scheme = code[match].split(separator: "\"")[1].dropLast(3).lowercased()
    let types = plist["CFBundleURLTypes"] as? [NSDictionary] ?? []
    let schemes = types.flatMap { ($0["CFBundleURLSchemes"] as? [String]) ?? [] }.map { $0.lowercased() }
    if !schemes.contains(scheme) { problems.append("the redirect URL's scheme \(scheme) is not in CFBundleURLTypes") }
    return problems
}

// MARK: - Main

func packageFacts(_ url: URL) throws -> (products: Set<String>, minimumIOS: Double) {
    guard let package = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
        throw Failure("\(url.path) is not the output of swift package dump-package")
    }
    let products = Set(
        (package["products"] as? [[String: Any]] ?? []).filter { ($0["type"] as? [String: Any])?["library"] != nil }
            .compactMap { $0["name"] as? String })
    let ios = (package["platforms"] as? [[String: Any]] ?? []).first { $0["platformName"] as? String == "ios" }
    return (products, Double(ios?["version"] as? String ?? "") ?? 0)
}

func main() throws -> Bool {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first, arguments.count >= 2 else {
        throw Failure("usage: example-projects generate ROOT | check ROOT PACKAGE_JSON")
    }
    let root = URL(fileURLWithPath: arguments[1], isDirectory: true)
    if command == "generate" {
        for app in apps {
            for (path, text) in try generatedFiles(root: root, app: app) {
                let url = root.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
                print("wrote \(path)")
            }
        }
        return true
    }
    guard command == "check", arguments.count == 3 else {
        throw Failure("usage: example-projects generate ROOT | check ROOT PACKAGE_JSON")
    }
    let (products, minimumIOS) = try packageFacts(URL(fileURLWithPath: arguments[2]))
    var failures: [String] = []
    var documented: NSDictionary?
    var firstText: String?
    for article in articles {
        do {
            let (text, keys) = try documentedKeys(root: root, article: article)
            if let firstText, firstText != text {
                failures.append("\(article): its Info.plist keys differ from \(articles[0])'s")
            }
            firstText = firstText ?? text
            documented = documented ?? keys
        } catch {
            failures.append("\(error)")
        }
    }
    for copy in copiesOfTheKeys(root: root) {
        failures.append("\(copy): a second copy of the Info.plist keys (list them once, in \(articles[0]))")
    }
    for app in apps {
        var problems: [String] = []
        do {
            for (path, text) in try generatedFiles(root: root, app: app) {
                let onDisk = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                if onDisk != text {
                    problems.append("\(path) is not what scripts/xcode/generate.sh writes (run it and commit)")
                }
            }
        } catch {
            problems.append("\(error)")
        }
        let pbxproj = root.appendingPathComponent("\(app.folder)/\(app.name).xcodeproj/project.pbxproj")
        if let text = try? String(contentsOf: pbxproj, encoding: .utf8) {
            problems += projectProblems(
                text, app: app, root: root, packageProducts: products, minimumIOS: minimumIOS
            ).map { "project.pbxproj: \($0)" }
            let objects = text.components(separatedBy: "isa = ").count - 1
            print("\(app.folder): \(app.name).xcodeproj, \(objects) objects")
        } else {
            problems.append("\(pbxproj.path.dropFirst(root.path.count + 1)) is missing")
        }
        if let documented {
            problems += infoPlistProblems(root: root, app: app, documented: documented)
            let keys = documented.allKeys.compactMap { $0 as? String }.sorted()
            print(
                "  Info.plist: the \(keys.count) keys of the Getting Started articles (\(keys.joined(separator: ", ")))"
            )
        }
        print(problems.isEmpty ? "  ok" : problems.map { "  FAIL \($0)" }.joined(separator: "\n"))
        failures += problems.map { "\(app.folder): \($0)" }
    }
    if failures.isEmpty {
        print("xcode: \(apps.count) example projects are valid and agree with the Getting Started articles")
        return true
    }
    for failure in failures { print("FAIL \(failure)") }
    print("xcode: \(failures.count) problems")
    return false
}

do {
    exit(try main() ? 0 : 1)
} catch {
    print("example-projects: \(error)")
    exit(2)
}
