#!/usr/bin/env bash
# Compiles and links the SDK against Apple's own iOS SDK, as an iOS developer's Xcode would build the package: target
# arm64-apple-ios13.0 (the package's deployment target), every product type-checked in the package's language mode
# (Swift 6) and in Swift 5 mode, the example apps (for the iOS version each README names), the 2.8-style client files
# of Tests/ClientCompat, the README's Swift snippets, and any files you name. Then the link stage (section 5b): every product compiled to an arm64
# object and linked with ld64.lld (Debian's lld-19, installed here with apt-get when missing) into one dylib against
# the SDK's .tbd stubs, each example app compiled and linked with them into an executable, and every symbol each
# image imports looked up in the .tbd stubs of the older iOS SDKs 13.7, 14.5 and 15.6 of the theos/sdks mirror: a
# strong import an older iOS lacks (a crash at launch) or a Swift runtime function it lacks (called without a check,
# like swift_getExtendedFunctionTypeMetadata) fails. A compiler warning of an API Apple disabled
# (scripts/apple/disabled-apis.tsv: openURL, UIWebView) fails its unit. Then, from the SDK's symbol graphs, it compares
# every declaration of the stubs in Tests/AppleStubs with Apple's, and Apple's protocol requirements and `required`
# initializers of the stubbed types with the stubs' (a stub may be stricter, never more permissive; a planted Sendable
# CLRegion and a stub protocol without presentationAnchor(for:) must be caught first), and checks that
# scripts/apple/ios-availability.tsv, ios-names.txt and ios-obligations.tsv are this SDK's.
#
#   scripts/check-ios-sdk.sh [--sdk PATH]                   everything above (0 errors, bar the artifacts listed below)
#   scripts/check-ios-sdk.sh --theos-sdks MIRROR            the same, with the SDK extracted from a theos/sdks clone
#   scripts/check-ios-sdk.sh --client FILE... [--swift-version 5|6]   type-check FILEs as an app that imports the SDK
#   scripts/check-ios-sdk.sh --grocery-express PATH         also IFTTT's 2.8 example app, unchanged, from a checkout
#                                                           or git mirror of IFTTT/ConnectSDK-iOS (Swift 5: 0 errors;
#                                                           the Swift 6 errors are counted and listed)
#   scripts/check-ios-sdk.sh --update-availability          rewrite scripts/apple/ios-availability.tsv, ios-names.txt
#                                                           and ios-obligations.tsv from the SDK
#   scripts/check-ios-sdk.sh --no-link                      everything but the link stage
#   scripts/check-ios-sdk.sh --link-only                    only the objects, the link and the older-iOS symbol check
#   scripts/check-ios-sdk.sh --channels                     only the install channels other than SwiftPM (section 5c):
#                                                           each pod compiled as CocoaPods does and linked, each
#                                                           framework with a verified .swiftinterface, a client of
#                                                           each, and no symbol defined in two images
#   scripts/check-ios-sdk.sh --planted                      plants the known defects one at a time in a copy of the
#                                                           files (split(separator: ", ") in the core, iOS 17's
#                                                           .containerRelativeFrame in the SwiftUI example, openURL(_:)
#                                                           in the URL opener, RecordingTransport's typed-throws
#                                                           property, a nonisolated read of UIApplication.shared,
#                                                           windowScene?.keyWindow in the About page) and fails
#                                                           unless this check catches each
#   scripts/check-ios-sdk.sh --stubs                        only compare Tests/AppleStubs with the SDK's declarations
#   scripts/check-ios-sdk.sh --flags                        set the SDK up, then print the swiftc flags that compile
#                                                           against it (-sdk, -resource-dir: one per line) and exit
#                                                           (scripts/privacy/scan-objects.sh reads them)
#
# Options: --cache DIR (default .build-ios-sdk in the repository, or IOS_SDK_CACHE) holds the extracted SDK, this
# script's patched view of it, the toolchain resource folder, the module cache and the SDK's symbol graphs; -h
# prints this help. The SDK: --sdk PATH, else IOS_SDK, else the iPhoneOS*.sdk that --theos-sdks MIRROR (or
# THEOS_SDKS) extracts into the cache, else one extracted there earlier. With none of these it prints one line and
# exits 3. The first run builds the module cache and extracts symbol graphs (several minutes); later runs reuse them.
#
# Apple's iOS SDK is not in this repository and never may be: get it from the public theos/sdks repository
# (`git clone --bare https://github.com/theos/sdks`, 161 MB; iPhoneOS16.5.sdk is its newest iOS SDK) and pass the
# clone with --theos-sdks (or THEOS_SDKS). The extraction skips blobs a partial clone lacks. The link stage reads the
# older SDKs' .tbd files from the same clone (cached as symbol lists in the cache); without the clone it checks
# against the lists cached earlier, or says it skipped. The mirror's 16.5 lacks Foundation.tbd (over its file size
# limit): the link takes 15.6's Foundation.tbd and libswiftFoundation.tbd instead, from a second system root.
#
# How: swiftc -typecheck -target arm64-apple-ios13.0 -sdk SDK -resource-dir DIR, where DIR holds only the Linux
# toolchain's `shims` and `clang` folders and the Dispatch and os API notes an Xcode toolchain ships (written below
# from their facts: without them the toolchain's own Dispatch module map collides with the SDK's). SwiftUI's
# interface has one os_log call with an interpolated message this compiler refuses: the script patches that call in
# its own view of the SDK (a tree of links into the SDK, with the patched files copied), never in the SDK itself. The
# view also declares what Xcode 16's standard library and SDKs have and this SDK (Swift 5.8) lacks: typed-throws
# Result.get(), `_willThrowTyped` (swift-frontend 6.3 crashes emitting a typed `throw` without it), Swift 6's
# checked-continuation intrinsics (it crashes emitting an `await` of an Objective-C completion-handler method without
# them), MainActor.assumeIsolated, AsyncStream.makeStream, Sendable DispatchQueue/DispatchSemaphore and constant
# UIAccessibilityTraits; each is emitted into the client, so it imports no symbol.
# Each product is compiled in dependency order, first as an interface-only module (so later products and the apps
# can import it even when it has errors), then type-checked whole. The SDK carries Swift 5.8's standard library, so
# a few errors are artifacts that Xcode 16 (which this package's tools version 6.0 needs) does not have: they are
# listed in `ignore_rules` below, each with its reason, by file and exact message. Nothing else is ignored.
set -uo pipefail
caller="$(pwd)"
cd "$(dirname "$0")/.." || exit 1
root="$(pwd)"
script="$root/scripts/check-ios-sdk.sh"

sdk="${IOS_SDK:-}"
theos="${THEOS_SDKS:-}"
cache="${IOS_SDK_CACHE:-$root/.build-ios-sdk}"
clients=()
client_mode=0
client_versions=(5 6)
grocery=""
update_availability=0
stubs_only=0
flags_only=0
no_link=0
link_only=0
planted_only=0
channels_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --sdk) sdk="$2"; shift 2 ;;
    --theos-sdks) theos="$2"; shift 2 ;;
    --cache) cache="$2"; shift 2 ;;
    --client) client_mode=1; shift
      while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do
        case "$1" in /*) clients+=("$1") ;; *) clients+=("$caller/$1") ;; esac
        shift
      done ;;
    --swift-version) client_versions=("${2:-}"); shift 2 ;;
    --grocery-express) grocery="$2"; shift 2 ;;
    --update-availability) update_availability=1; shift ;;
    --stubs) stubs_only=1; shift ;;
    --flags) flags_only=1; shift ;;
    --no-link) no_link=1; shift ;;
    --link-only) link_only=1; shift ;;
    --planted) planted_only=1; link_only=1; shift ;;
    --channels) channels_only=1; shift ;;
    -h|--help) sed -n '2,/^set -uo pipefail/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "check-ios-sdk: unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
absolute() { case "$1" in /*) echo "$1" ;; *) echo "$caller/$1" ;; esac; }
if [ "$client_mode" -eq 1 ] && [ "${#clients[@]}" -eq 0 ]; then echo "--client needs at least one file" >&2; exit 2; fi
for file in "${clients[@]}"; do [ -f "$file" ] || { echo "check-ios-sdk: no such file: $file" >&2; exit 2; }; done
case "${client_versions[*]}" in "5 6"|5|6) ;; *) echo "--swift-version takes 5 or 6" >&2; exit 2 ;; esac
cache="$(absolute "$cache")"
[ -n "$grocery" ] && grocery="$(absolute "$grocery")"

# ---------------------------------------------------------------------------------------------------------------------
# 1. The SDK.

# Extracts iPhoneOS<newest>.sdk from a theos/sdks git directory (bare or not) into the cache. `git archive` keeps the
# SDK's symbolic links; blobs a partial clone lacks are left out (listed).
extract_from_theos() {
  local mirror="$1" gitdir name missing excludes=() blob path
  gitdir="$(git -C "$mirror" rev-parse --git-dir 2>/dev/null)" || { echo "check-ios-sdk: $mirror is not a git repository" >&2; return 2; }
  case "$gitdir" in /*) ;; *) gitdir="$mirror/$gitdir" ;; esac
  name="$(git --git-dir="$gitdir" ls-tree -d --name-only HEAD | grep -E '^iPhoneOS[0-9.]+\.sdk$' | sort -V | tail -1)"
  [ -n "$name" ] || { echo "check-ios-sdk: no iPhoneOS*.sdk folder in $mirror" >&2; return 2; }
  if [ -f "$cache/$name/.extracted" ]; then echo "$cache/$name"; return 0; fi
  echo "check-ios-sdk: extracting $name from $mirror into $cache (once)" >&2
  missing="$(git --git-dir="$gitdir" ls-tree -r HEAD -- "$name" | awk '$2 == "blob" { print $3 }' \
    | git --git-dir="$gitdir" cat-file --batch-check 2>/dev/null | awk '$2 == "missing" { print $1 }')"
  for blob in $missing; do
    path="$(git --git-dir="$gitdir" ls-tree -r HEAD -- "$name" | awk -v b="$blob" '$3 == b { sub(/^[^\t]*\t/, ""); print }')"
    while IFS= read -r path; do
      [ -n "$path" ] || continue
      echo "check-ios-sdk:   absent from the clone, left out: $path" >&2
      excludes+=(":(exclude)${path#"$name"/}")
    done <<<"$path"
  done
  rm -rf "${cache:?}/$name.partial" "${cache:?}/$name"
  mkdir -p "$cache/$name.partial"
  git --git-dir="$gitdir" archive --format=tar "HEAD:$name" -- . "${excludes[@]}" 2>"$cache/extract.log" \
    | tar -x -C "$cache/$name.partial" || { echo "check-ios-sdk: extraction failed:" >&2; cat "$cache/extract.log" >&2; return 1; }
  [ -f "$cache/$name.partial/SDKSettings.json" ] || { echo "check-ios-sdk: the extracted SDK has no SDKSettings.json" >&2; return 1; }
  mv "$cache/$name.partial" "$cache/$name" && touch "$cache/$name/.extracted"
  echo "$cache/$name"
}

if [ -z "$sdk" ] && [ -n "$theos" ]; then
  sdk="$(extract_from_theos "$(absolute "$theos")")" || exit $?
fi
if [ -z "$sdk" ]; then
  sdk="$(find "$cache" -maxdepth 2 -name .extracted -path '*/iPhoneOS*.sdk/*' 2>/dev/null | sort -V | tail -1)"
  sdk="${sdk%/.extracted}"
fi
if [ -z "$sdk" ]; then
  message="check-ios-sdk: no iOS SDK (give --sdk PATH, IOS_SDK, or a theos/sdks clone with --theos-sdks)"
  if [ "$flags_only" -eq 1 ]; then echo "$message" >&2; else echo "$message"; fi
  exit 3
fi
sdk="$(cd "$(absolute "$sdk")" 2>/dev/null && pwd)" || { echo "check-ios-sdk: no SDK folder at $sdk" >&2; exit 2; }
[ -d "$sdk/usr/lib/swift/Swift.swiftmodule" ] || { echo "check-ios-sdk: $sdk is not an iOS SDK (no Swift.swiftmodule)" >&2; exit 2; }
sdk_name="$(basename "$sdk")"

# ---------------------------------------------------------------------------------------------------------------------
# 2. The resource folder: the toolchain's shims and clang headers, plus API notes for Dispatch and os.

toolchain_lib="$(cd "$(dirname "$(readlink -f "$(command -v swiftc)")")/../lib/swift" && pwd)"
[ -d "$toolchain_lib/shims" ] || { echo "check-ios-sdk: no shims folder in $toolchain_lib" >&2; exit 1; }

# The API notes, as one line per C declaration: KIND[:private|:nonswift] C-NAME [SWIFT-NAME]. KIND is class,
# protocol, typedef, function or enumerator; `private` marks what Swift sees only under a `__` name (the overlay wraps
# it), `nonswift` what Swift does not see. These are facts of Apple's Dispatch and os overlays (their Swift names);
# an Xcode toolchain carries them in lib/swift/apinotes. For this SDK (Swift 5.8), the os_log implementation
# functions must be private, not nonswift: its os overlay calls them by their `__` names.
dispatch_notes() {
  cat <<'EOF'
typedef:nonswift dispatch_object_t
typedef:nonswift dispatch_block_t
typedef:nonswift dispatch_queue_t
typedef:nonswift dispatch_semaphore_t
typedef:nonswift dispatch_io_t
typedef:nonswift dispatch_data_t
typedef:nonswift dispatch_group_t
typedef:nonswift dispatch_qos_class_t
typedef:nonswift dispatch_data_applier_t
typedef:nonswift dispatch_fd_t
typedef:nonswift dispatch_io_handler_t
typedef:nonswift dispatch_source_t
typedef:nonswift dispatch_function_t
typedef:nonswift dispatch_io_close_flags_t
typedef:nonswift dispatch_io_interval_flags_t
typedef:nonswift dispatch_io_type_t
typedef:nonswift dispatch_source_timer_flags_t
typedef:private dispatch_autorelease_frequency_t
typedef:nonswift dispatch_queue_attr_t
typedef:nonswift dispatch_queue_priority_t
typedef:private dispatch_block_flags_t
typedef:private dispatch_source_type_t
typedef:nonswift dispatch_source_mach_send_flags_t
typedef:nonswift dispatch_source_memorypressure_flags_t
typedef:nonswift dispatch_source_proc_flags_t
typedef:nonswift dispatch_source_vnode_flags_t
class OS_dispatch_object DispatchObject
class OS_dispatch_queue DispatchQueue
class OS_dispatch_io DispatchIO
class OS_dispatch_semaphore DispatchSemaphore
class OS_dispatch_group DispatchGroup
class OS_dispatch_source DispatchSource
class:private OS_dispatch_queue_attr
class OS_dispatch_data __DispatchData
protocol OS_dispatch_source DispatchSourceProtocol
protocol OS_dispatch_source_mach_send DispatchSourceMachSend
protocol OS_dispatch_source_mach_recv DispatchSourceMachReceive
protocol OS_dispatch_source_memorypressure DispatchSourceMemoryPressure
protocol OS_dispatch_source_proc DispatchSourceProcess
protocol OS_dispatch_source_read DispatchSourceRead
protocol OS_dispatch_source_signal DispatchSourceSignal
protocol OS_dispatch_source_timer DispatchSourceTimer
protocol OS_dispatch_source_data_or DispatchSourceUserDataOr
protocol OS_dispatch_source_data_add DispatchSourceUserDataAdd
protocol OS_dispatch_source_data_replace DispatchSourceUserDataReplace
protocol OS_dispatch_source_vnode DispatchSourceFileSystemObject
protocol OS_dispatch_source_write DispatchSourceWrite
function:nonswift dispatch_release
function:nonswift dispatch_retain
function:private dispatch_queue_create DispatchQueue.init(__label:attr:)
function:private dispatch_get_global_queue
function:private dispatch_queue_create_with_target DispatchQueue.init(__label:attr:queue:)
function:private dispatch_assert_queue
function:private dispatch_assert_queue_barrier
function:private dispatch_assert_queue_not
function:private dispatch_async
function:nonswift dispatch_async_f
function:private dispatch_barrier_async
function:nonswift dispatch_barrier_async_f
function:private dispatch_apply
function:nonswift dispatch_apply_f
function dispatch_sync DispatchQueue.sync(self:execute:)
function:nonswift dispatch_sync_f
function:private dispatch_barrier_sync
function:nonswift dispatch_barrier_sync_f
function:private dispatch_queue_get_label
function:private dispatch_queue_get_qos_class
function:private dispatch_after
function:nonswift dispatch_after_f
function:private dispatch_queue_get_specific
function:private dispatch_queue_set_specific
function:private dispatch_get_specific
function:nonswift dispatch_get_main_queue
function:private dispatch_queue_attr_make_initially_inactive
function:private dispatch_queue_attr_make_with_autorelease_frequency
function:private dispatch_queue_attr_make_with_qos_class
function dispatch_set_target_queue DispatchObject.setTarget(self:queue:)
function dispatch_activate DispatchObject.activate(self:)
function dispatch_suspend DispatchObject.suspend(self:)
function dispatch_resume DispatchObject.resume(self:)
function:nonswift dispatch_set_finalizer_f
function:nonswift dispatch_get_context
function:nonswift dispatch_set_context
function:nonswift _dispatch_object_validate
function:nonswift dispatch_block_create
function:nonswift dispatch_block_create_with_qos_class
function:nonswift dispatch_block_perform
function:nonswift dispatch_block_wait
function:nonswift dispatch_block_notify
function:nonswift dispatch_block_cancel
function:nonswift dispatch_block_testcancel
function:nonswift dispatch_data_create
function:private dispatch_data_get_size
function:private dispatch_data_apply
function:private dispatch_data_create_concat
function:private dispatch_data_create_subrange
function:private dispatch_data_copy_region
function:private dispatch_data_create_map
function dispatch_group_create DispatchGroup.init()
function:private dispatch_group_async
function:nonswift dispatch_group_async_f
function:private dispatch_group_wait
function:private dispatch_group_notify
function:nonswift dispatch_group_notify_f
function dispatch_group_enter DispatchGroup.enter(self:)
function dispatch_group_leave DispatchGroup.leave(self:)
function:private dispatch_io_create DispatchIO.init(__type:fd:queue:handler:)
function:private dispatch_io_create_with_path DispatchIO.init(__type:path:oflag:mode:queue:handler:)
function:private dispatch_io_create_with_io DispatchIO.init(__type:io:queue:handler:)
function:private dispatch_io_read
function:private dispatch_io_write
function:private dispatch_io_close
function dispatch_io_barrier DispatchIO.barrier(self:execute:)
function dispatch_io_get_descriptor getter:DispatchIO.fileDescriptor(self:)
function dispatch_io_set_high_water DispatchIO.setLimit(self:highWater:)
function dispatch_io_set_low_water DispatchIO.setLimit(self:lowWater:)
function:private dispatch_io_set_interval
function:private dispatch_read
function:private dispatch_write
function dispatch_semaphore_create DispatchSemaphore.init(value:)
function:private dispatch_semaphore_wait
function:private dispatch_semaphore_signal
function:private dispatch_source_create
function:private dispatch_source_get_handle
function:private dispatch_source_get_mask
function:private dispatch_source_get_data
function:private dispatch_source_merge_data
function:private dispatch_source_set_event_handler
function:nonswift dispatch_source_set_event_handler_f
function:private dispatch_source_set_cancel_handler
function:nonswift dispatch_source_set_cancel_handler_f
function:private dispatch_source_set_registration_handler
function:nonswift dispatch_source_set_registration_handler_f
function:private dispatch_source_cancel
function:private dispatch_source_testcancel
function:private dispatch_source_set_timer
function:private dispatch_time
function:private dispatch_walltime
function dispatch_main dispatchMain()
global:nonswift _dispatch_data_destructor_free
global:nonswift _dispatch_data_destructor_munmap
enumerator:nonswift DISPATCH_BLOCK_BARRIER
enumerator:nonswift DISPATCH_BLOCK_DETACHED
enumerator:nonswift DISPATCH_BLOCK_ASSIGN_CURRENT
enumerator:nonswift DISPATCH_BLOCK_NO_QOS_CLASS
enumerator:nonswift DISPATCH_BLOCK_INHERIT_QOS_CLASS
enumerator:nonswift DISPATCH_BLOCK_ENFORCE_QOS_CLASS
enumerator:nonswift DISPATCH_AUTORELEASE_FREQUENCY_INHERIT
enumerator:nonswift DISPATCH_AUTORELEASE_FREQUENCY_WORK_ITEM
enumerator:nonswift DISPATCH_AUTORELEASE_FREQUENCY_NEVER
EOF
}
os_notes() {
  cat <<'EOF'
typedef os_log_type_t OSLogType
typedef:nonswift os_trace_payload_t
typedef:nonswift os_log_t
typedef os_signpost_type_t OSSignpostType
class OS_os_log OSLog
enumerator:private OS_LOG_TYPE_DEFAULT
enumerator:private OS_LOG_TYPE_INFO
enumerator:private OS_LOG_TYPE_DEBUG
enumerator:private OS_LOG_TYPE_ERROR
enumerator:private OS_LOG_TYPE_FAULT
enumerator:private OS_SIGNPOST_INTERVAL_BEGIN
enumerator:private OS_SIGNPOST_INTERVAL_END
enumerator:private OS_SIGNPOST_EVENT
function:private _os_log_impl
function:private _os_log_error_impl
function:private _os_log_fault_impl
function:nonswift _os_log_sensitive_deprecated
function:nonswift _os_trace_with_buffer
function:nonswift os_log_is_enabled
function os_log_type_enabled OSLog.isEnabled(self:type:)
function:nonswift _os_log_create
function:private os_log_create OSLog.init(__subsystem:category:)
function:nonswift os_log_is_debug_enabled
function:private os_signpost_enabled
function:private os_signpost_id_generate
function:private os_signpost_id_make_with_pointer
function:private _os_signpost_emit_with_name_impl
EOF
}
# Writes the YAML API notes file of module $1 from the lines above on standard input.
apinotes_yaml() {
  awk -v module="$1" '
    BEGIN { print "Name: " module }
    NF >= 2 {
      split($1, kind, ":")
      section = kind[1] == "class" ? "Classes" : kind[1] == "protocol" ? "Protocols" : kind[1] == "typedef" ? "Typedefs" \
        : kind[1] == "enumerator" ? "Enumerators" : kind[1] == "global" ? "Globals" : "Functions"
      entry = "- Name: " $2 "\n"
      if ($3 != "") entry = entry "  SwiftName: '\''" $3 "'\''\n"
      if (kind[2] == "private") entry = entry "  SwiftPrivate: true\n"
      if (kind[2] == "nonswift") entry = entry "  Availability: nonswift\n"
      body[section] = body[section] entry
    }
    END {
      n = split("Typedefs Classes Protocols Functions Globals Enumerators", order, " ")
      for (i = 1; i <= n; i++) if (order[i] in body) printf "%s:\n%s", order[i], body[order[i]]
    }'
}

mkdir -p "$cache"
resources="$cache/resource-dir"
mkdir -p "$resources/apinotes"
ln -sfn "$toolchain_lib/shims" "$resources/shims"
ln -sfn "$toolchain_lib/clang" "$resources/clang"
dispatch_notes | apinotes_yaml Dispatch >"$resources/apinotes/Dispatch.apinotes"
os_notes | apinotes_yaml os >"$resources/apinotes/os.apinotes"

# This script's view of the SDK: a tree of links into the SDK, where each file it patches is a copy (the folders on
# its path are folders of links). Nothing in the SDK itself is changed. $1 = the view, $2 = a path inside it.
own_copy() {
  local dir="$1" path="$2" part target entry
  local IFS=/
  for part in $path; do
    if [ -L "$dir/$part" ]; then
      target="$(readlink "$dir/$part")"
      rm "$dir/$part"
      if [ -d "$target" ]; then
        mkdir "$dir/$part"
        for entry in "$target"/* "$target"/.[!.]*; do
          [ -e "$entry" ] || [ -L "$entry" ] || continue
          ln -s "$entry" "$dir/$part/${entry##*/}"
        done
      else
        cp "$target" "$dir/$part"; chmod u+w "$dir/$part"
      fi
    fi
    dir="$dir/$part"
  done
}
swift_lib="usr/lib/swift"
swiftui_interface="System/Library/Frameworks/SwiftUI.framework/Modules/SwiftUI.swiftmodule/arm64-apple-ios.swiftinterface"
swift_interface="$swift_lib/Swift.swiftmodule/arm64-apple-ios.swiftinterface"
concurrency_interface="$swift_lib/_Concurrency.swiftmodule/arm64-apple-ios.swiftinterface"
dispatch_interface="$swift_lib/Dispatch.swiftmodule/arm64-apple-ios.swiftinterface"
traits_header="System/Library/Frameworks/UIKit.framework/Headers/UIAccessibilityConstants.h"
# The view is keyed by the SDK and the patches (bump `patch_version` when they change), not by this whole script:
# a new view path would make the compiler rebuild its module cache (minutes).
patch_version=4
view_key="$(printf '%s\n' "$sdk" "$patch_version" | sha256sum | cut -c1-12)"
view="$cache/sdk-view/$view_key/$sdk_name"
if [ ! -f "$view/.ready" ]; then
  rm -rf "$cache/sdk-view"
  mkdir -p "$view"
  for entry in "$sdk"/* "$sdk"/.[!.]*; do
    [ -e "$entry" ] || [ -L "$entry" ] || continue
    ln -s "$entry" "$view/${entry##*/}"
  done
  for path in "$swiftui_interface" "$swift_interface" "$concurrency_interface" "$dispatch_interface" "$traits_header"; do
    own_copy "$view" "$path"
  done
  # 1. `Environment.wrappedValue` logs a fault with `\(Value.self)` interpolated into an os_log StaticString message,
  #    which this compiler refuses; the message loses the type name, nothing else changes.
  sed -i 's/Accessing Environment<\\(Value\.self)>'"'"'s value outside of/Accessing Environment'"'"'s value outside of/' \
    "$view/$swiftui_interface"
  # 2. What Xcode 16's standard library (Swift 6) has and this SDK's Swift 5.8 lacks, declared as Swift 6 declares it
  #    (emitted into the client, so no symbol of a newer runtime is imported): Result.get() rethrowing its Failure type
  #    (typed throws), and `_willThrowTyped`, the hook a typed `throw` calls (without it swift-frontend 6.3 crashes
  #    when it emits code for a typed throw). Swift 6's hook also calls swift_willThrowTypedImpl behind
  #    `#available(iOS 18)`; this one does nothing.
  awk '
    /^  @inlinable public func get\(\) throws -> Success \{$/ { print "  @_alwaysEmitIntoClient public func get() throws(Failure) -> Success {"; patched++; next }
    { print }
    END { print "@_alwaysEmitIntoClient public func _willThrowTyped<E>(_ error: E) where E : Swift.Error {}" }
  ' "$view/$swift_interface" >"$view/$swift_interface.new" && mv "$view/$swift_interface.new" "$view/$swift_interface"
  # 3. Swift 5.9's MainActor.assumeIsolated and AsyncStream.makeStream(of:bufferingPolicy:), which Xcode 15 and later
  #    emit into the client for every iOS (so they import nothing newer), declared as Swift 5.9 declares them; and
  #    Swift 6's checked-continuation intrinsics, which swift-frontend 6.3 calls when it emits an `await` of an
  #    Objective-C completion-handler method (UIApplication.open(_:options:)) and crashes without.
  cat >>"$view/$concurrency_interface" <<'SWIFT'
extension _Concurrency.MainActor {
  @_alwaysEmitIntoClient public static func assumeIsolated<T>(_ operation: @_Concurrency.MainActor () throws -> T, file: Swift.StaticString = #fileID, line: Swift.UInt = #line) rethrows -> T {
    typealias YesActor = @_Concurrency.MainActor () throws -> T
    typealias NoActor = () throws -> T
    return try withoutActuallyEscaping(operation) { (_ fn: @escaping YesActor) throws -> T in
      let rawFn = unsafeBitCast(fn, to: NoActor.self)
      return try rawFn()
    }
  }
}
@usableFromInline @_alwaysEmitIntoClient internal func _createCheckedContinuation<T>(_ continuation: __owned _Concurrency.UnsafeContinuation<T, Swift.Never>) -> _Concurrency.CheckedContinuation<T, Swift.Never> {
  return _Concurrency.CheckedContinuation(continuation: continuation)
}
@usableFromInline @_alwaysEmitIntoClient internal func _createCheckedThrowingContinuation<T>(_ continuation: __owned _Concurrency.UnsafeContinuation<T, Swift.Error>) -> _Concurrency.CheckedContinuation<T, Swift.Error> {
  return _Concurrency.CheckedContinuation(continuation: continuation)
}
@usableFromInline @_alwaysEmitIntoClient internal func _resumeCheckedContinuation<T>(_ continuation: _Concurrency.CheckedContinuation<T, Swift.Never>, _ value: __owned T) {
  continuation.resume(returning: value)
}
@usableFromInline @_alwaysEmitIntoClient internal func _resumeCheckedThrowingContinuation<T>(_ continuation: _Concurrency.CheckedContinuation<T, Swift.Error>, _ value: __owned T) {
  continuation.resume(returning: value)
}
@usableFromInline @_alwaysEmitIntoClient internal func _resumeCheckedThrowingContinuationWithError<T>(_ continuation: _Concurrency.CheckedContinuation<T, Swift.Error>, _ error: __owned Swift.Error) {
  continuation.resume(throwing: error)
}
extension _Concurrency.AsyncStream {
  @_alwaysEmitIntoClient public static func makeStream(of elementType: Element.Type = Element.self, bufferingPolicy limit: _Concurrency.AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded) -> (stream: _Concurrency.AsyncStream<Element>, continuation: _Concurrency.AsyncStream<Element>.Continuation) {
    var continuation: _Concurrency.AsyncStream<Element>.Continuation!
    let stream = _Concurrency.AsyncStream<Element>(bufferingPolicy: limit) { continuation = $0 }
    return (stream: stream, continuation: continuation!)
  }
}
SWIFT
  # 4. Concurrency annotations of Xcode 16's SDKs: DispatchQueue and DispatchSemaphore are Sendable, and UIKit's
  #    accessibility traits and notifications are constants (`UIKIT_EXTERN UIAccessibilityTraits const ...`; Apple's
  #    documentation declares e.g. `nonisolated static let announcement: UIAccessibility.Notification`).
  printf '%s\n' 'extension Dispatch.DispatchQueue : @unchecked Swift.Sendable {}' \
    'extension Dispatch.DispatchSemaphore : @unchecked Swift.Sendable {}' >>"$view/$dispatch_interface"
  sed -i -e 's/^UIKIT_EXTERN UIAccessibilityTraits UIAccessibilityTrait/UIKIT_EXTERN UIAccessibilityTraits const UIAccessibilityTrait/' \
    -e 's/^UIKIT_EXTERN UIAccessibilityNotifications UIAccessibility/UIKIT_EXTERN UIAccessibilityNotifications const UIAccessibility/' \
    "$view/$traits_header"
  if grep -q 'Accessing Environment<\\(Value.self)>' "$view/$swiftui_interface" \
      || ! grep -q 'func get() throws(Failure) -> Success' "$view/$swift_interface" \
      || ! grep -q 'UIAccessibilityTraits const UIAccessibilityTraitButton' "$view/$traits_header" \
      || ! grep -q 'UIAccessibilityNotifications const UIAccessibilityAnnouncementNotification' "$view/$traits_header"; then
    echo "check-ios-sdk: a patch of the SDK view did not apply" >&2; exit 1
  fi
  touch "$view/.ready"
fi

# The module cache is keyed by the SDK, the API notes and the compiler.
module_key="$(cat "$resources/apinotes/"*.apinotes <(echo "$sdk") <(swiftc --version 2>&1) | sha256sum | cut -c1-12)"
module_cache="$cache/module-cache/$module_key"
find "$cache/module-cache" -mindepth 1 -maxdepth 1 ! -name "$module_key" -exec rm -rf {} + 2>/dev/null
mkdir -p "$module_cache"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
deployment="13.0"
target="arm64-apple-ios$deployment"
apple=(-target "$target" -sdk "$view" -resource-dir "$resources" -module-cache-path "$module_cache")
if [ "$flags_only" -eq 1 ]; then printf '%s\n' -sdk "$view" -resource-dir "$resources"; exit 0; fi

# ---------------------------------------------------------------------------------------------------------------------
# 3. What is ignored: every error listed here is an artifact of this SDK's age, not of the code. One rule a line:
#    MODE | FILES (extended regex on the path from the repository's root) | MESSAGE (exact) | REASON
# MODE is 5, 6 or * (both). A message ending in ` (same line)` is ignored only on a line where another rule already
# ignored an error (the compiler's follow-on diagnostic of the same expression).
ignore_rules() {
  cat <<'EOF_RULES'
# The errors this SDK's age used to cause (Swift 5.9 and 6 standard library API, concurrency annotations of Xcode 16's
# SDKs) are gone: the script's view of the SDK declares those as Xcode 16 has them (section 2), so no rule is needed.
# Swift 5 mode of the products: the package is built in Swift 6 mode only (swiftLanguageModes: [.v6]).
# Swift 6 mode's warnings, which fail like errors: this SDK's SwiftUI declares Animatable without isolation, so the
# @preconcurrency of a main-actor view's Animatable conformance (needed with Xcode 16's SDKs, where the conformance
# crosses into the view's main-actor isolation) is reported as having no effect here.
6 | Sources/IFTTTConnectCore/Button/Apple/ConnectButtonView\+Motion\.swift | '@preconcurrency' on conformance to 'Animatable' has no effect | 16.5's Animatable is nonisolated; Xcode 16's SDKs need the @preconcurrency conformance of the main-actor frame view
5 | Sources/IFTTTConnectCore/Activation/WebAuthenticationSession\.swift | call to main actor-isolated initializer 'init()' in a synchronous nonisolated context [#ActorIsolatedCall] | BrowserWebAuthenticationSession.init(opener:)'s main-actor default argument is accepted in Swift 6 mode (isolated default values, SE-0411), the package's only mode; Swift 5 mode refuses it
EOF_RULES
}

# Reads compiler output (-diagnostic-style=llvm) on standard input; $1 = Swift version, $2 = the unit's label.
# In the package's language mode (Swift 6) a warning counts as an error, as the package builds with warnings as errors
# and Xcode 16's SDKs, annotated for concurrency, make this SDK's isolation warnings (a nonisolated read of
# UIApplication.shared) errors; the rules below match warnings as they match errors. Prints each error no rule ignores, appends the ignored ones to $work/ignored, and prints a last line
# `ERRORS IGNORED WARNINGS`.
classify() {
  awk -v mode="$1" -v strict="$package_mode" -v label="$2" -v root="$root/" -v ignored_file="$work/ignored" -v rules_file="$work/rules" '
    BEGIN {
      FS = "\n"
      while ((getline line < rules_file) > 0) {
        if (line ~ /^[[:space:]]*(#|$)/) continue
        n = split(line, part, / \| /)
        if (n != 4) { print "bad ignore rule: " line; bad = 1; continue }
        rules++; rmode[rules] = part[1]; rfile[rules] = part[2]; rmsg[rules] = part[3]; rwhy[rules] = part[4]
        rsame[rules] = sub(/ \(same line\)$/, "", rmsg[rules])
      }
    }
    /^([^ ].*:[0-9]+:[0-9]+|<unknown>:0|[^ :]+): (error|warning): / || /^(error|warning): / {
      line = $0
      match(line, / (error|warning): /)
      where = substr(line, 1, RSTART - 1); sub(/:$/, "", where); kind = substr(line, RSTART + 1, RLENGTH - 3); message = substr(line, RSTART + RLENGTH)
      if (index(where, root) == 1) where = substr(where, length(root) + 1)
      split(where, loc, ":"); file = loc[1]; at = loc[1] ":" loc[2]
      if (kind == "warning" && mode != strict) { warnings++; warning_text[warnings] = where ": " message; next }
      count++; ewhere[count] = where; efile[count] = file; eat[count] = at; emsg[count] = message; ekind[count] = kind
    }
    END {
      # First the rules that stand alone, then the follow-on ones, which need an ignored error on their line.
      for (pass = 0; pass <= 1; pass++)
        for (i = 1; i <= count; i++) {
          if (rule[i]) continue
          for (r = 1; r <= rules; r++) {
            if (rsame[r] != pass) continue
            if (rmode[r] != "*" && rmode[r] != mode) continue
            if (emsg[i] != rmsg[r] || efile[i] !~ ("^(" rfile[r] ")$")) continue
            if (pass == 1 && !(eat[i] in ignored_at)) continue
            rule[i] = r; ignored_at[eat[i]] = 1; break
          }
        }
      for (i = 1; i <= count; i++) {
        if (rule[i]) { ignored++; printf "%s\t%s\t%s\t%s\t%s\n", rule[i], mode, label, ewhere[i], emsg[i] >> ignored_file }
        else if (ekind[i] == "warning") { errors++; print "    error: " ewhere[i] ": " emsg[i] " (a warning against this SDK; Swift " strict " mode fails it: Xcode 16'\''s SDKs carry the concurrency annotations that make it an error, and the package builds with warnings as errors)" }
        else { errors++; print "    error: " ewhere[i] ": " emsg[i] }
      }
      for (i = 1; i <= warnings && i <= 40; i++) print "    warning: " warning_text[i]
      print (errors + bad) + 0, ignored + 0, warnings + 0
    }'
}

ignore_rules >"$work/rules"
: >"$work/ignored"
status=0
unit_start=$SECONDS
report() {   # $1 = label, $2 = Swift version, $3 = log; prints the unit's line, and its errors and warnings
  local out counts errors ignored warnings
  out="$(classify "$2" "$1" <"$3")"
  counts="$(echo "$out" | tail -1)"; read -r errors ignored warnings <<<"$counts"
  # A deprecation warning of an API Apple disabled (scripts/apple/disabled-apis.tsv) fails the unit.
  local pattern what source disabled=""
  while IFS=$'\t' read -r pattern what source; do
    case "$pattern" in '#'*|'') continue ;; esac
    if grep -E ': warning: ' "$3" | grep -qE "$pattern"; then
      disabled+="$(grep -E ': warning: ' "$3" | grep -E "$pattern" | sort -u | head -5 | sed "s|$root/||; s/^/    disabled API: /")"$'\n'"      $what (source: $source)"$'\n'
      errors=$((errors + 1))
    fi
  done <"$root/scripts/apple/disabled-apis.tsv"
  printf 'ios-sdk: %-58s %s errors' "$1 (Swift $2)" "$errors"
  [ "$ignored" -gt 0 ] && printf ', %s ignored' "$ignored"
  [ "$warnings" -gt 0 ] && printf ', %s warnings' "$warnings"
  printf ' (%s s)\n' "$((SECONDS - unit_start))"
  unit_start=$SECONDS
  echo "$out" | sed '$d' | head -80
  [ -n "$disabled" ] && printf '%s' "$disabled"
  if grep -qE '(Segmentation fault|Stack dump|PLEASE submit a bug report)' "$3"; then
    echo "    the compiler crashed:"; grep -m5 -E 'error|Segmentation|Stack dump' "$3" | sed 's/^/    /'; errors=1
  fi
  [ "$errors" -eq 0 ] || status=1
  last_errors="$errors"
}

# ---------------------------------------------------------------------------------------------------------------------
# 4. The products, in dependency order, in the package's language mode and in Swift 5 mode.

package_mode="$(sed -n 's/.*swiftLanguageModes: \[\.v\([0-9]*\).*/\1/p' Package.swift | head -1)"
[ -n "$package_mode" ] || package_mode=6
deployment="$(sed -n 's/.*\.iOS(\.v\([0-9_]*\)).*/\1/p' Package.swift | head -1 | tr _ .)"
case "$deployment" in *.*) ;; "") echo "check-ios-sdk: no iOS platform in Package.swift" >&2; exit 1 ;; *) deployment="$deployment.0" ;; esac
target="arm64-apple-ios$deployment"
apple=(-target "$target" -sdk "$view" -resource-dir "$resources" -module-cache-path "$module_cache" -diagnostic-style=llvm)
products=(IFTTTConnectCore IFTTTConnectLocation IFTTTConnectSDK IFTTTSDK IFTTTConnectService IFTTTConnectTesting IFTTTConnectDesktop)
for dir in Sources/*/; do
  name="$(basename "$dir")"
  case " ${products[*]} " in *" $name "*) ;; *) echo "check-ios-sdk: Sources/$name is not in this script's product list" >&2; exit 1 ;; esac
done
# What SwiftPM generates for a target with resources (Bundle.module), for type-checking only.
source "$root/scripts/lib/bundle-accessor.sh"
write_bundle_accessor "$work/resource_bundle_accessor.swift"

# Compiles every product in Swift $1 into $work/modules-$1.
compile_products() {
  local version="$1" out="$work/modules-$1" product files
  mkdir -p "$out"
  for product in "${products[@]}"; do
    mapfile -t files < <(find "Sources/$product" -name '*.swift' | sort)
    if find "Sources/$product" -maxdepth 1 -name Resources -type d | grep -q .; then files+=("$work/resource_bundle_accessor.swift"); fi
    local flags=(-parse-as-library -swift-version "$version" -module-name "$product" -package-name ifttt_connect_sdk
      -D SWIFT_PACKAGE -D DEBUG -Onone -enable-testing -I "$out" "${apple[@]}")
    # The interface-only module the later products import, written even when the product has errors.
    swiftc -emit-module -wmo "${flags[@]}" -Xfrontend -experimental-skip-non-inlinable-function-bodies \
      -Xfrontend -experimental-allow-module-with-compiler-errors -emit-module-path "$out/$product.swiftmodule" \
      "${files[@]}" >"$work/emit-$product-$version.log" 2>&1
    [ "$link_only" -eq 1 ] && continue
    swiftc -typecheck -wmo "${flags[@]}" "${files[@]}" >"$work/$product-$version.log" 2>&1
    report "$product" "$version" "$work/$product-$version.log"
  done
}

# Type-checks app files ($4...) as one app module in Swift $1 for iOS $3 against the products built in the
# package's mode.
typecheck_app() {
  local version="$1" label="$2" ios="$3"; shift 3
  local flags=("${apple[@]}")
  flags[1]="arm64-apple-ios$ios"
  swiftc -typecheck -parse-as-library -continue-building-after-errors -module-name App -swift-version "$version" \
    -I "$work/modules-$package_mode" "${flags[@]}" "$@" >"$work/app.log" 2>&1
  report "$label" "$version" "$work/app.log"
}

# ---------------------------------------------------------------------------------------------------------------------
# 5b. Objects and the link, as Xcode builds an app: every product compiled to an arm64 object (Swift 6 mode, the
#     package's), linked with ld64.lld (Debian's lld-19; the Swift toolchain's own ld64.lld refuses iOS) into one
#     dylib against the SDK's .tbd stubs, and each example app compiled and linked with the products into an
#     executable. A symbol no library of the SDK exports fails the link when it is imported strongly; a weak import of
#     one (API newer than this SDK, behind #available) is allowed. Then every imported symbol of each image is looked
#     up in the .tbd stubs of the older iOS SDKs of the theos/sdks mirror (13.7, 14.5, 15.6, those at or above the
#     image's deployment target): a strong import an older iOS lacks is a crash at launch there and fails; a weak one
#     is allowed only for API, which the compiler imports weakly only behind #available, never for a Swift runtime
#     entry point (`_swift_*` of libswiftCore, such as swift_getExtendedFunctionTypeMetadata), which the compiler
#     calls without a check (a null call on the older iOS).
older_ios=(13.7 14.5 15.6)
ld64=""
ensure_lld() {
  ld64="$(command -v ld64.lld-19 || true)"
  if [ -z "$ld64" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "ios-sdk: installing Debian's lld-19 (ld64.lld-19) for the link stage" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lld-19 >"$work/apt.log" 2>&1 \
      || { apt-get update -qq >>"$work/apt.log" 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lld-19 >>"$work/apt.log" 2>&1; }
    ld64="$(command -v ld64.lld-19 || true)"
  fi
  [ -n "$ld64" ]
}
nm_tool="$(dirname "$(readlink -f "$(command -v swiftc)")")/llvm-nm"
[ -x "$nm_tool" ] || nm_tool="$(command -v llvm-nm-19 || command -v llvm-nm || true)"

# The symbols every .tbd of an SDK exports for arm64 (one a line, sorted), cached per SDK: $1 = SDK name
# (iPhoneOS13.7.sdk), $2 = a folder holding it, or empty to read it from the theos/sdks mirror. Prints the list's path.
sdk_exports() {
  local name="$1" folder="$2" list="$cache/exports/$1.txt" gitdir tmp
  if [ ! -s "$list" ]; then
    mkdir -p "$cache/exports"
    if [ -n "$folder" ]; then
      find -L "$folder" -name '*.tbd' -print0 | xargs -0 awk -f "$root/scripts/apple/tbd-exports.awk" | LC_ALL=C sort -u >"$list.tmp"
    else
      [ -n "$theos" ] || return 1
      gitdir="$(git -C "$(absolute "$theos")" rev-parse --git-dir 2>/dev/null)" || return 1
      case "$gitdir" in /*) ;; *) gitdir="$(absolute "$theos")/$gitdir" ;; esac
      git --git-dir="$gitdir" rev-parse -q --verify "HEAD:$name" >/dev/null || return 1
      # The public libraries' stubs (an app links no private framework), streamed blob by blob: a blob the mirror
      # lacks (a file over its size limit) is skipped and named.
      git --git-dir="$gitdir" ls-tree -r HEAD -- "$name/System/Library/Frameworks" "$name/usr/lib" \
        | awk -F'\t' '$2 ~ /\.tbd$/ { split($1, f, " "); if (f[1] == "100644") print f[3] }' \
        | git --git-dir="$gitdir" cat-file --batch 2>/dev/null \
        | tee >(awk '$2 == "missing" { print "ios-sdk: symbols: a stub of '"$name"' is absent from the mirror: " $1 }' >&2) \
        | awk -f "$root/scripts/apple/tbd-exports.awk" | LC_ALL=C sort -u >"$list.tmp" || { rm -f "$list.tmp"; return 1; }
      # The 16.5 SDK of the mirror lacks Foundation.tbd (over its size limit); the link falls back to an older one's.
      mkdir -p "$cache/exports/$name.Foundation.framework"
      git --git-dir="$gitdir" cat-file -p "HEAD:$name/System/Library/Frameworks/Foundation.framework/Foundation.tbd" \
        >"$cache/exports/$name.Foundation.framework/Foundation.tbd" 2>/dev/null \
        && git --git-dir="$gitdir" cat-file -p "HEAD:$name/usr/lib/swift/libswiftFoundation.tbd" \
          >"$cache/exports/$name.Foundation.framework/libswiftFoundation.tbd" 2>/dev/null \
        || rm -rf "$cache/exports/$name.Foundation.framework"
    fi
    [ -s "$list.tmp" ] && mv "$list.tmp" "$list" || { rm -f "$list.tmp"; return 1; }
  fi
  echo "$list"
}

# Compiles one module to an object: $1 = module, $2 = iOS version, $3 = label, the rest = files. Reports like the
# type-checks (same ignore rules; the patched SDK view leaves none of them to ignore).
emit_object() {
  local module="$1" ios="$2" label="$3"; shift 3
  local flags=("${apple[@]}")
  flags[1]="arm64-apple-ios$ios"
  swiftc -c -wmo -parse-as-library -swift-version "$package_mode" -module-name "$module" -package-name ifttt_connect_sdk \
    -D SWIFT_PACKAGE -Onone -runtime-compatibility-version none -I "$objects_modules" "${flags[@]}" "$@" \
    -o "$objects/$module.o" >"$work/object-$module.log" 2>&1
  report "$label" "$package_mode" "$work/object-$module.log"
  [ -s "$objects/$module.o" ]
}

# What Xcode's toolchain links statically into every app, which no SDK stub lists: compiler-rt's
# __isPlatformVersionAtLeast (what `#available` calls) and the Swift back-deployment libraries
# (libswiftCompatibility56.a and kin: `*BackDeploy*` entry points, which call the OS's function where it has one).
toolchain_static='^(___isPlatformVersionAtLeast|___isOSVersionAtLeast|_swift_.*BackDeploy.*)$'
toolchain_symbols=()
# Links objects ($4...) into $1 (kind $2: dylib or executable) for iOS $3. A strong undefined symbol fails; weak ones
# absent from this SDK are allowed (-U). Prints one line and returns non-zero on failure.
link_image() {
  local out="$1" kind="$2" ios="$3"; shift 3
  local base=(-arch arm64 -platform_version ios "$ios" "$sdk_version" "${link_roots[@]}" -L/usr/lib/swift -L/usr/lib
    -F/System/Library/Frameworks -lSystem -lobjc -dead_strip_dylibs -o "$out")
  [ "$kind" = dylib ] && base+=(-dylib -install_name "@rpath/$(basename "$out")")
  [ "$kind" = framework ] && base+=(-dylib -install_name "@rpath/$(basename "$out").framework/$(basename "$out")")
  [ "$kind" = executable ] && base+=(-execute -e _main)
  local undefined weak strong=() allowed=() symbol
  toolchain_symbols=()
  "$ld64" "${base[@]}" "$@" >"$work/link.log" 2>&1 && { echo "0 weak imports of API newer than $sdk_name allowed"; return 0; }
  mapfile -t undefined < <(sed -n 's/.*undefined symbol: \(.*\)$/\1/p' "$work/link.log" | sort -u)
  [ "${#undefined[@]}" -gt 0 ] || { echo "link failed:"; head -20 "$work/link.log"; return 1; }
  weak="$("$nm_tool" -m "$@" 2>/dev/null | sed -n 's/^ *(undefined) weak external \([^ ]*\).*/\1/p' | sort -u)"
  for symbol in "${undefined[@]}"; do
    if grep -qxF -- "$symbol" <<<"$weak"; then allowed+=(-U "$symbol")
    elif [[ "$symbol" =~ $toolchain_static ]]; then allowed+=(-U "$symbol"); toolchain_symbols+=("$symbol")
    else strong+=("$symbol"); fi
  done
  if [ "${#strong[@]}" -gt 0 ]; then
    echo "${#strong[@]} strong imports no library of $sdk_name exports:"
    for symbol in "${strong[@]}"; do
      echo "    $symbol  ($(swift demangle --compact "$symbol" 2>/dev/null | head -c 160))"
      grep -F -- "$symbol" "$work/link.log" | grep -m3 'referenced by' | sed 's/^/      /'
    done
    return 1
  fi
  "$ld64" "${base[@]}" "${allowed[@]}" "$@" >"$work/link.log" 2>&1 || { echo "link failed:"; head -20 "$work/link.log"; return 1; }
  local newer=()
  for symbol in "${allowed[@]}"; do
    [ "$symbol" = -U ] && continue
    [[ "$symbol" =~ $toolchain_static ]] || newer+=("$symbol")
  done
  echo "${#newer[@]} weak imports of API newer than $sdk_name allowed${newer[*]:+ (${newer[*]})}; ${#toolchain_symbols[@]} symbols of the toolchain's static libraries: ${toolchain_symbols[*]}"
}

# Looks every symbol image $1 imports up in the older SDKs at or above iOS $2. Prints a line per SDK; failures fail.
check_imports() {
  local image="$1" ios="$2" label="$3" imports older list concurrency checked strong_missing weak_missing runtime
  imports="$work/imports-$(basename "$image").txt"
  # `(undefined) [weak] external SYMBOL (from LIBRARY)`
  # (a symbol the link allowed undefined with -U shows `(dynamically looked up)` instead of its library)
  "$nm_tool" -m "$image" | sed 's/(dynamically looked up)/(from no library of the SDK)/' \
    | sed -n 's/^ *(undefined) \(weak \)\{0,1\}external \([^ ]*\) (from \([^)]*\)).*/\2\t\1\t\3/p' \
    | sed 's/\tweak \t/\tweak\t/; s/\t\t/\tstrong\t/' | sort -u >"$imports"
  echo "ios-sdk: link: $label imports $(wc -l <"$imports") symbols ($(awk -F'\t' '$2 == "weak"' "$imports" | wc -l) weak)"
  # Runtime functions the compiler reaches only through a stub it emits into the image, which tests the weak import
  # for null and falls back (`__swift_coroFrameAllocStub` calls swift_coroFrameAlloc where the OS has it, else malloc).
  "$nm_tool" -m "$image" | sed -n 's/.* ___\(swift_[A-Za-z0-9_]*\)Stub$/_\1/p' | sort -u >"$work/guarded"
  local compared=0
  for older in "${older_ios[@]}"; do
    if [ "$(printf '%s\n%s\n' "$ios" "$older" | sort -V | head -1)" != "$ios" ]; then continue; fi  # older < ios
    compared=$((compared + 1))
    list="$(sdk_exports "iPhoneOS$older.sdk" "")" || { echo "ios-sdk: symbols: $label vs iOS $older: skipped (no theos/sdks mirror: --theos-sdks or THEOS_SDKS)"; continue; }
    # Below iOS 15 the app embeds the back-deployed Swift concurrency library; 15.6's stands in for it.
    concurrency=/dev/null
    if [ "${older%%.*}" -lt 15 ]; then concurrency="$(sdk_exports iPhoneOS15.6.sdk "")" || concurrency=/dev/null; fi
    awk -F'\t' -v older="$older" -v label="$label" -v toolchain="$toolchain_static" '
      FILENAME == ARGV[1] { have[$0] = 1; next }
      FILENAME == ARGV[2] { back[$0] = 1; next }
      FILENAME == ARGV[3] { stubbed[$0] = 1; next }
      {
        checked++
        symbol = $1; kind = $2; library = $3
        if (symbol in have) next
        if (symbol ~ toolchain) next   # linked statically from the toolchain into the app
        if (library == "libswift_Concurrency" && symbol in back) next
        if (kind == "strong") { strong++; print "    strong import missing on iOS " older ": " symbol " (from " library ")" }
        else if (symbol ~ /^_swift_/ && (symbol in stubbed)) { guarded++; print "    Swift runtime function missing on iOS " older ", reached only through the compiler'\''s null-checking stub: " symbol }
        else if (symbol ~ /^_swift_/ && (library == "libswiftCore" || library == "no library of the SDK")) { runtime++; print "    Swift runtime function missing on iOS " older ", imported weakly and called without a check: " symbol }
        else weak++
      }
      END { printf "ios-sdk: symbols: %s vs iOS %s: %d checked, %d strong missing, %d runtime functions missing, %d weak missing (API behind #available)\n", label, older, checked, strong, runtime, weak > "/dev/stderr"
            exit (strong + runtime) > 0 }' "$list" "$concurrency" "$work/guarded" "$imports" 2>"$work/summary" >"$work/missing" || { status=1; }
    cat "$work/summary" "$work/missing" | head -40
  done
  [ "$compared" -gt 0 ] || echo "ios-sdk: symbols: $label: no older SDK of the mirror is at or above iOS $ios; its imports were checked against $sdk_name by the link"
}

# Plants each known defect in a copy of the one unit it lives in, builds that unit as the full run does, and requires
# the failure the full run would report. $1 = what, $2 = unit (a product or an example app folder), $3 = file, $4 = sed,
# $5 = stage (typecheck or link), $6 = an extended regular expression the output must match.
planted_defect() {
  local what="$1" unit="$2" file="$3" expression="$4" stage="$5" expected="$6" copy="$work/planted-$RANDOM" out files
  mkdir -p "$copy"
  cp -r "$unit" "$copy/"
  local planted="$copy/$(basename "$unit")/${file#"$unit"/}"
  sed -i "$expression" "$planted"
  if cmp -s "$file" "$planted"; then echo "ios-sdk: planted: could not plant $what (its line changed)"; status=1; return; fi
  mapfile -t files < <(find "$copy/$(basename "$unit")" -name '*.swift' ! -name Package.swift | sort)
  out="$work/planted-out-$RANDOM"
  local saved_status=$status
  if [ "$stage" = typecheck ] && [ "${unit#Sources/}" != "$unit" ]; then
    local product="${unit#Sources/}"
    [ -d "$unit/Resources" ] && files+=("$work/resource_bundle_accessor.swift")
    swiftc -typecheck -wmo -parse-as-library -swift-version "$package_mode" -module-name "$product" \
      -package-name ifttt_connect_sdk -D SWIFT_PACKAGE -I "$work/modules-$package_mode" "${apple[@]}" "${files[@]}" \
      >"$out.log" 2>&1
    report "planted: $what" "$package_mode" "$out.log" >"$out" 2>&1
  elif [ "$stage" = typecheck ]; then
    local ios
    ios="$(grep -oE 'iOS [0-9]+(\.[0-9]+)? or later' "$unit/README.md" | head -1 | grep -oE '[0-9.]+')"
    case "$ios" in *.*) ;; *) ios="$ios.0" ;; esac
    typecheck_app "$package_mode" "planted: $what" "$ios" "${files[@]}" >"$out" 2>&1
  else
    local product="${unit#Sources/}"
    objects="$work/planted-objects"; objects_modules="$work/modules-$package_mode"; mkdir -p "$objects"
    emit_object "$product" "$deployment" "planted: $what" "${files[@]}" >"$out" 2>&1
    { link_image "$work/planted.dylib" dylib "$deployment" "$objects/$product.o" "$work/objects/IFTTTConnectCore.o" \
        && check_imports "$work/planted.dylib" "$deployment" "planted $product"; } >>"$out" 2>&1
  fi
  status=$saved_status
  if grep -qE "$expected" "$out"; then
    echo "ios-sdk: planted: $what: caught by the $stage stage: $(grep -m1 -E "$expected" "$out" | sed 's/^ *//' | cut -c1-200)"
  else
    echo "ios-sdk: planted: $what: NOT caught"; sed 's/^/    /' "$out" | head -20; status=1
  fi
}

planted_defects() {
  link_stage
  local link_status=$status
  planted_defect 'split(separator: ", ") in the core' Sources/IFTTTConnectCore \
    Sources/IFTTTConnectCore/Activation/AppleAdapters.swift \
    's|^    public func canOpen(_ url: URL) -> Bool {$|    func plantedSplit(_ header: String) -> [Substring] { header.split(separator: ", ") }\n&|' \
    typecheck "error: .*split.* is only available in iOS 16"
  planted_defect '.containerRelativeFrame in the SwiftUI example' Examples/GroceryExpress-SwiftUI \
    Examples/GroceryExpress-SwiftUI/GroceryExpress/SettingsScreen.swift \
    's|^        .navigationTitle("Settings")$|        .containerRelativeFrame(.horizontal)\n&|' \
    typecheck "error: .*containerRelativeFrame"
  planted_defect 'UIApplication.shared.openURL(_:) in the URL opener' Sources/IFTTTConnectCore \
    Sources/IFTTTConnectCore/Activation/AppleAdapters.swift \
    's|^        await UIApplication.shared.open(url, options: \[:\])$|        UIApplication.shared.openURL(url)|' \
    typecheck "disabled API: .*openURL"
  planted_defect "RecordingTransport's typed-throws stored property" Sources/IFTTTConnectTesting \
    Sources/IFTTTConnectTesting/RecordingTransport.swift \
    's|^    private let answer: @Sendable (HTTPRequest) -> Result<HTTPResponse, ConnectAPIError>$|    private let answer: @Sendable (HTTPRequest) throws(ConnectAPIError) -> HTTPResponse|; s|^        self.answer = { request in$|        self.answer = answer; _ = { (request: HTTPRequest) -> Result<HTTPResponse, ConnectAPIError> in|; s|^        switch answer(request) {$|        return try answer(request); switch Result<HTTPResponse, ConnectAPIError>.failure(.timedOut) {|' \
    link "Swift runtime function missing on iOS 13.7, imported weakly and called without a check: _swift_getExtendedFunctionTypeMetadata"
  planted_defect 'a nonisolated UIApplication.shared read' Sources/IFTTTConnectCore \
    Sources/IFTTTConnectCore/Activation/AppleAdapters.swift \
    's|^    public func canOpen(_ url: URL) -> Bool {$|    nonisolated func plantedIsActive() -> Bool { UIApplication.shared.applicationState == .active }\n&|' \
    typecheck "error: .*AppleAdapters.swift:[0-9]+:[0-9]+: .*(main actor|nonisolated).*Swift 6 mode fails it"
  planted_defect 'windowScene?.keyWindow in the About page' Sources/IFTTTConnectCore \
    Sources/IFTTTConnectCore/Button/Apple/AboutViewController.swift \
    's|^        let application = UIApplication.shared$|&\n        _ = host.view.window?.windowScene?.keyWindow|' \
    typecheck "error: .*'keyWindow' is only available in iOS 15"
  [ "$link_status" -eq 0 ] || status=1
}

# The linker, the SDK's version and the system roots of the link (once).
prepare_link() {
  [ -n "${link_roots+set}" ] && return 0
  if ! ensure_lld; then echo "ios-sdk: link: no ld64.lld-19 (apt-get install lld-19); the link stage is skipped"; status=1; return 1; fi
  [ -x "$nm_tool" ] || { echo "ios-sdk: link: no llvm-nm"; status=1; return 1; }
  sdk_version="$(sed -n 's/.*"Version" *: *"\([0-9.]*\)".*/\1/p' "$sdk/SDKSettings.json" | head -1)"
  # The mirror's 16.5 SDK lacks Foundation.tbd (over the mirror's file size limit): the newest older SDK's stands in,
  # from a second system root the linker searches after the SDK (the SDK view itself stays as the module cache knows
  # it).
  local foundation="System/Library/Frameworks/Foundation.framework" fallback="$cache/link-fallback-root" older
  # Its Swift overlay (libswiftFoundation), which 16.5 folds into Foundation.tbd, comes from the same SDK: that root is
  # searched first and holds only those two stubs.
  link_roots=(-syslibroot "$view")
  if [ ! -e "$view/$foundation/Foundation.tbd" ]; then
    for older in 15.6 14.5 13.7; do
      sdk_exports "iPhoneOS$older.sdk" "" >/dev/null 2>&1 || continue
      if [ -f "$cache/exports/iPhoneOS$older.sdk.Foundation.framework/Foundation.tbd" ]; then
        mkdir -p "$fallback/$foundation" "$fallback/usr/lib/swift"
        cp "$cache/exports/iPhoneOS$older.sdk.Foundation.framework/Foundation.tbd" "$fallback/$foundation/Foundation.tbd"
        cp "$cache/exports/iPhoneOS$older.sdk.Foundation.framework/libswiftFoundation.tbd" "$fallback/usr/lib/swift/"
        link_roots=(-syslibroot "$fallback" -syslibroot "$view")
        echo "ios-sdk: link: $sdk_name has no Foundation.tbd; iPhoneOS$older.sdk's stands in"
        break
      fi
    done
  fi
}
link_stage() {
  objects="$work/objects"; objects_modules="$work/modules-$package_mode"; mkdir -p "$objects"
  prepare_link || return
  local product files ok=1 count
  for product in "${products[@]}"; do
    mapfile -t files < <(find "Sources/$product" -name '*.swift' | sort)
    if find "Sources/$product" -maxdepth 1 -name Resources -type d | grep -q .; then files+=("$work/resource_bundle_accessor.swift"); fi
    emit_object "$product" "$deployment" "object: $product" "${files[@]}" || ok=0
  done
  [ "$ok" -eq 1 ] || { echo "ios-sdk: link: skipped, a product did not compile to an object"; status=1; return; }
  local product_objects=()
  for product in "${products[@]}"; do product_objects+=("$objects/$product.o"); done
  if count="$(link_image "$work/IFTTTConnect.dylib" dylib "$deployment" "${product_objects[@]}")"; then
    echo "ios-sdk: link: the ${#products[@]} products -> arm64 dylib for iOS $deployment: linked ($count)"
    check_imports "$work/IFTTTConnect.dylib" "$deployment" "products"
  else
    echo "ios-sdk: link: the ${#products[@]} products FAILED: $count"; status=1
  fi
  local app ios name
  for app in Examples/*/; do
    app="${app%/}"; name="$(basename "$app")"
    mapfile -t files < <(find "$app" -name '*.swift' ! -name Package.swift | sort)
    [ "${#files[@]}" -gt 0 ] || continue
    ios="$(grep -oE 'iOS [0-9]+(\.[0-9]+)? or later' "$app/README.md" 2>/dev/null | head -1 | grep -oE '[0-9.]+')"
    case "$ios" in *.*) ;; *) ios="$ios.0" ;; esac
    emit_object "App_${name//-/_}" "$ios" "object: $app (iOS $ios)" "${files[@]}" || { status=1; continue; }
    if count="$(link_image "$work/$name" executable "$ios" "$objects/App_${name//-/_}.o" "${product_objects[@]}")"; then
      echo "ios-sdk: link: $app -> arm64 executable for iOS $ios: linked ($count)"
      check_imports "$work/$name" "$ios" "$app"
    else
      echo "ios-sdk: link: $app FAILED: $count"; status=1
    fi
  done
}
# ---------------------------------------------------------------------------------------------------------------------
# 5c. The install channels other than SwiftPM, built as their tools build them (section 4 and 5b are SwiftPM's):
#     - CocoaPods: each pod of the podspecs (scripts/podspec/check-podspec.rb reads them: one pod per module) compiled
#       as CocoaPods compiles a pod target: its own files, as the module named by its module_name, the podspec's
#       Swift flags (pod_target_xcconfig), COCOAPODS defined, no SWIFT_PACKAGE, only its dependencies' modules on the
#       search path, arm64 iOS 13; in Swift 6 (to an object) and Swift 5; each linked into its dynamic framework
#       against its dependencies' (use_frameworks!); then an app that sees only the pods' modules compiles
#       Tests/ClientCompat/05-FetchingConnection.swift (`import IFTTTConnectSDK`, a ConnectButton and its controller)
#       and links with the pods' frameworks.
#     - XCFrameworks (manual, Carthage, .binaryTarget): each module compiled with library evolution, its
#       .swiftinterface emitted and verified (-verify-emitted-module-interface: the interface compiles back into a
#       module), linked into its framework image against the images of the modules it imports (the core is linked,
#       never embedded); the same client compiled against the interfaces alone (a folder of .swiftinterface files, no
#       binary module, no source) and linked with the images.
#     For both, every pair of images is compared: a symbol defined in two images (the core's state copied into a
#     second framework) fails; the core's symbols another image uses must be imported from the core's image.
#     .github/workflows/apple.yml builds the XCFrameworks on a Mac with the same swiftc steps.
channel_modules=()
channels_client=(Tests/ClientCompat/05-FetchingConnection.swift)
# Prints the defined external symbols of image $1, one a line, sorted.
defined_symbols() { "$nm_tool" -g --defined-only -j "$1" 2>/dev/null | LC_ALL=C sort -u; }
# Compares the images ($@, each `module=path`): prints one line and the first duplicates; fails on a duplicate or on
# a core symbol another image defines or does not import from the core.
compare_images() {
  local label="$1"; shift
  local entry module image duplicates imported_from_core=0 images=0 core_image=""
  : >"$work/all-defined"
  for entry in "$@"; do
    module="${entry%%=*}"; image="${entry#*=}"; images=$((images + 1))
    defined_symbols "$image" | sed "s/\$/\t$module/" >>"$work/all-defined"
    [ "$module" = IFTTTConnectCore ] && core_image="$image"
  done
  duplicates="$(cut -f1 "$work/all-defined" | LC_ALL=C sort | uniq -d | wc -l)"
  for entry in "$@"; do
    module="${entry%%=*}"; image="${entry#*=}"
    [ "$module" = IFTTTConnectCore ] && continue
    imported_from_core=$((imported_from_core + $("$nm_tool" -m "$image" | grep -c '(undefined) .*(from IFTTTConnectCore)')))
  done
  local core_count=0
  [ -n "$core_image" ] && core_count="$(defined_symbols "$core_image" | wc -l)"
  echo "ios-sdk: $label: $images images, $duplicates duplicate symbol definitions across them; the core's $core_count symbols defined in IFTTTConnectCore's image only, $imported_from_core imports of them from it by the others"
  if [ "$duplicates" -gt 0 ]; then
    cut -f1 "$work/all-defined" | LC_ALL=C sort | uniq -d | head -5 | while read -r symbol; do
      echo "    defined in $(awk -F'\t' -v s="$symbol" '$1 == s { printf "%s ", $2 }' "$work/all-defined"): $symbol ($(swift demangle --compact "$symbol" | head -c 120))"
    done
    status=1
  fi
  [ "$imported_from_core" -gt 0 ] || { echo "    no image imports anything from IFTTTConnectCore's: the core is not linked as one image"; status=1; }
}
channels_stage() {
  prepare_link || return
  # The pods, from the podspecs (Ruby evaluates them: scripts/bootstrap.sh installs it).
  if ! command -v ruby >/dev/null; then
    echo "ios-sdk: channels: no ruby to read the podspecs (scripts/bootstrap.sh installs Debian's ruby)"; status=1; return
  fi
  if ! swift package --scratch-path .build-podspec describe --type json >"$work/describe.json" 2>"$work/describe.err" \
      || ! ruby scripts/podspec/check-podspec.rb "$work/describe.json" ./*.podspec --dump "$work/pods.json" >"$work/podspec.out" 2>&1; then
    cat "$work/describe.err" "$work/podspec.out" 2>/dev/null | tail -20; echo "ios-sdk: channels: the podspecs do not check (scripts/checks/48-podspec.sh)"; status=1; return
  fi
  ruby -rjson -rset -e '
    pods = JSON.parse(File.read(ARGV[0])).to_h { |pod| [pod["name"], pod] }
    closure = ->(name, seen) { pods[name]["dependencies"].each { |d| closure.(d, seen) if seen.add?(d) }; seen }
    pods.each_value { |pod| puts [pod["name"], pod["swift_flags"].join(" "), pod["dependencies"].join(" "), closure.(pod["name"], Set.new).to_a.join(" "), pod["sources"].join(" ")].join("|") }
  ' "$work/pods.json" >"$work/pods.txt"
  mapfile -t channel_modules < <(cut -d'|' -f1 "$work/pods.txt")
  local pod flags direct reachable sources flag_list source_list includes dep version out images=() ok=1 client_flags
  # CocoaPods: Swift 6 (the pods' swift_versions) to objects and frameworks, then Swift 5.
  for version in 6 5; do
    out="$work/pods-$version"; mkdir -p "$out"
    while IFS='|' read -r pod flags direct reachable sources; do
      read -ra flag_list <<<"$flags"; read -ra source_list <<<"$sources"
      includes=(); for dep in $reachable; do includes+=(-I "$out/$dep"); done
      mkdir -p "$out/$pod"
      # Swift 6 (the pods' language version) to an object and a module; Swift 5 type-checks the pod's own files
      # against its dependencies' Swift 6 modules, as a pod built in Swift 5 mode would see them.
      local build=(-emit-module -emit-module-path "$out/$pod/$pod.swiftmodule" -c -o "$out/$pod.o")
      if [ "$version" = 5 ]; then
        build=(-typecheck); includes=(); for dep in $reachable; do includes+=(-I "$work/pods-6/$dep"); done
      fi
      swiftc "${build[@]}" -wmo -parse-as-library -swift-version "$version" -module-name "$pod" "${flag_list[@]}" \
        -D COCOAPODS -D DEBUG -Onone "${includes[@]}" "${apple[@]}" "${source_list[@]}" >"$work/pod-$pod-$version.log" 2>&1
      report "pod $pod (${#source_list[@]} files, as CocoaPods)" "$version" "$work/pod-$pod-$version.log"
      [ "$last_errors" -eq 0 ] || ok=0
      if [ "$version" = 6 ] && [ -s "$out/$pod.o" ]; then
        local deps_images=(); for dep in $direct; do deps_images+=("$out/$dep.framework/$dep"); done
        mkdir -p "$out/$pod.framework"
        if count="$(link_image "$out/$pod.framework/$pod" framework "$deployment" "$out/$pod.o" "${deps_images[@]}")"; then
          images+=("$pod=$out/$pod.framework/$pod")
        else
          echo "ios-sdk: link: pod $pod FAILED: $count"; ok=0; status=1
        fi
      fi
    done <"$work/pods.txt"
  done
  client_flags=(); for pod in "${channel_modules[@]}"; do client_flags+=(-I "$work/pods-6/$pod"); done
  channel_client "CocoaPods" "$work/pods-6" "${client_flags[@]}" || ok=0
  [ "$ok" -eq 1 ] && compare_images "CocoaPods (use_frameworks!)" "${images[@]}"
  # XCFrameworks: library evolution, verified interfaces, one image per module.
  local fw="$work/frameworks" interfaces="$work/interfaces" module
  images=(); ok=1
  mkdir -p "$fw" "$interfaces"
  while IFS='|' read -r module flags direct reachable sources; do
    read -ra flag_list <<<"$flags"; read -ra source_list <<<"$sources"
    local swiftmodule="$fw/$module.swiftmodule"
    mkdir -p "$swiftmodule"
    swiftc -c -o "$fw/$module.o" -emit-module -emit-module-path "$swiftmodule/arm64-apple-ios.swiftmodule" \
      -enable-library-evolution -emit-module-interface-path "$swiftmodule/arm64-apple-ios.swiftinterface" \
      -emit-private-module-interface-path "$swiftmodule/arm64-apple-ios.private.swiftinterface" \
      -verify-emitted-module-interface -wmo -parse-as-library -swift-version 6 -module-name "$module" "${flag_list[@]}" \
      -Onone -I "$fw" "${apple[@]}" "${source_list[@]}" >"$work/framework-$module.log" 2>&1
    report "framework $module (${#source_list[@]} files, library evolution)" 6 "$work/framework-$module.log"
    [ "$last_errors" -eq 0 ] || { ok=0; continue; }
    if [ ! -s "$swiftmodule/arm64-apple-ios.swiftinterface" ]; then
      echo "    no .swiftinterface was emitted"; ok=0; status=1; continue
    fi
    echo "ios-sdk: framework $module: $(grep -vc '^//' "$swiftmodule/arm64-apple-ios.swiftinterface") lines of .swiftinterface, re-verified (it compiles back into a module)"
    mkdir -p "$interfaces/$module.swiftmodule"
    cp "$swiftmodule/arm64-apple-ios.swiftinterface" "$interfaces/$module.swiftmodule/"
    local deps_images=(); for dep in $direct; do deps_images+=("$fw/$dep.framework/$dep"); done
    mkdir -p "$fw/$module.framework"
    if count="$(link_image "$fw/$module.framework/$module" framework "$deployment" "$fw/$module.o" "${deps_images[@]}")"; then
      images+=("$module=$fw/$module.framework/$module")
    else
      echo "ios-sdk: link: framework $module FAILED: $count"; ok=0; status=1
    fi
  done <"$work/pods.txt"
  if [ "$ok" -eq 1 ]; then
    # The client sees the interfaces only: no binary module, no source (the module cache is its own).
    channel_client "XCFrameworks (interfaces only)" "$fw" -I "$interfaces" -module-cache-path "$work/interface-cache" || ok=0
    compare_images "XCFrameworks" "${images[@]}"
    # Self-test: the core linked into a second image as well (the per-product dynamic frameworks of before, each
    # holding its own copy of the core's state) must be counted as duplicates.
    local saved_status=$status
    mkdir -p "$work/embedded"
    if link_image "$work/embedded/IFTTTConnectLocation" framework "$deployment" "$fw/IFTTTConnectLocation.o" \
        "$fw/IFTTTConnectCore.o" >/dev/null; then
      compare_images "self-test" "IFTTTConnectCore=$fw/IFTTTConnectCore.framework/IFTTTConnectCore" \
        "IFTTTConnectLocation=$work/embedded/IFTTTConnectLocation" >"$work/embedded.out"
    fi
    status=$saved_status
    local planted_duplicates
    planted_duplicates="$(sed -n 's/.* images, \([0-9]*\) duplicate symbol definitions.*/\1/p' "$work/embedded.out" 2>/dev/null)"
    if [ "${planted_duplicates:-0}" -gt 0 ]; then
      echo "ios-sdk: channels self-test: the core linked into IFTTTConnectLocation's image too: $planted_duplicates duplicate symbol definitions reported"
    else
      echo "ios-sdk: channels self-test FAILED: the core linked into a second image was not reported"; status=1
    fi
  else
    status=1
  fi
}
# Compiles and links the channel's client: $1 = label, $2 = folder of the framework images, the rest = search flags.
channel_client() {
  local label="$1" images_dir="$2"; shift 2
  local main="$work/channel-main.swift" version count frameworks=() pod
  printf '%s\n' 'import UIKit' '' '@main' 'enum ChannelClient {' '    @MainActor static func main() {' \
    '        _ = FetchingViewController()' '    }' '}' >"$main"
  for version in 6 5; do
    swiftc -typecheck -parse-as-library -swift-version "$version" -module-name App "$@" "${apple[@]}" \
      "${channels_client[@]}" "$main" >"$work/client.log" 2>&1
    report "$label: an app's ${channels_client[*]##*/}" "$version" "$work/client.log"
    [ "$last_errors" -eq 0 ] || return 1
  done
  swiftc -c -wmo -parse-as-library -swift-version 6 -module-name App -Onone "$@" "${apple[@]}" \
    "${channels_client[@]}" "$main" -o "$work/client.o" >"$work/client.log" 2>&1 || { cat "$work/client.log" | head; status=1; return 1; }
  for pod in "${channel_modules[@]}"; do frameworks+=("$images_dir/$pod.framework/$pod"); done
  if count="$(link_image "$work/client-app" executable "$deployment" "$work/client.o" "${frameworks[@]}")"; then
    echo "ios-sdk: link: $label: the app -> arm64 executable against the ${#frameworks[@]} frameworks: linked ($count)"
  else
    echo "ios-sdk: link: $label: the app FAILED: $count"; status=1; return 1
  fi
}
start=$SECONDS
type_checks=1
[ "$stubs_only" -eq 1 ] || [ "$update_availability" -eq 1 ] && type_checks=0
if [ "$channels_only" -eq 1 ]; then
  channels_stage; echo "ios-sdk: install channels checked against $sdk_name in $((SECONDS - start)) s"; exit $status
fi
if [ "$type_checks" -eq 1 ]; then
compile_products "$package_mode"
if [ "$client_mode" -eq 1 ]; then
  for version in "${client_versions[@]}"; do
    typecheck_app "$version" "${clients[*]#"$caller/"}" "$deployment" "${clients[@]}"
  done
  exit $status
fi
if [ "$planted_only" -eq 1 ]; then planted_defects; exit $status; fi
if [ "$link_only" -eq 1 ]; then link_stage; echo "ios-sdk: link stage checked against $sdk_name in $((SECONDS - start)) s"; exit $status; fi
[ "$package_mode" = 5 ] || compile_products 5

# ---------------------------------------------------------------------------------------------------------------------
# 5. The example apps and the 2.8-style client files, in Swift 6 and Swift 5 modes.

# Each example app is checked for the iOS version its README asks for ("iOS NN or later").
for app in Examples/*/; do
  app="${app%/}"
  mapfile -t files < <(find "$app" -name '*.swift' ! -name Package.swift | sort)
  [ "${#files[@]}" -gt 0 ] || continue
  ios="$(grep -oE 'iOS [0-9]+(\.[0-9]+)? or later' "$app/README.md" 2>/dev/null | head -1 | grep -oE '[0-9.]+')"
  [ -n "$ios" ] || { echo "check-ios-sdk: $app/README.md names no 'iOS NN or later'"; status=1; continue; }
  case "$ios" in *.*) ;; *) ios="$ios.0" ;; esac
  for version in 6 5; do typecheck_app "$version" "$app (iOS $ios)" "$ios" "${files[@]}"; done
done
# Together as one app, but the files marked `// client-compat: alone` (their own types shadow the SDK's), each alone.
mapfile -t files < <(find Tests/ClientCompat -name '*.swift' | sort | while read -r file; do
  head -1 "$file" | grep -q '^// client-compat: alone' || echo "$file"; done)
for version in 6 5; do typecheck_app "$version" "Tests/ClientCompat (${#files[@]} files)" "$deployment" "${files[@]}"; done
for alone in $(grep -l '^// client-compat: alone' Tests/ClientCompat/*.swift); do
  for version in 6 5; do typecheck_app "$version" "$alone" "$deployment" "$alone"; done
done
# The README's Swift snippets (the sandbox set-up and both Connect Buttons), together as one app, for iOS 13.
mapfile -t files < <(scripts/lib/readme-swift.sh "$work/readme")
for version in 6 5; do typecheck_app "$version" "README.md's Swift snippets (${#files[@]})" "$deployment" "${files[@]}"; done

[ "$no_link" -eq 1 ] || { link_stage; channels_stage; }

# IFTTT's own 2.8 example app, unchanged: Swift 5 mode must have no error; Swift 6 mode's errors are the app's own
# (2.8 predates Swift 6's data-race checking), counted and listed, not failed.
if [ -n "$grocery" ]; then
  mkdir -p "$work/grocery"
  if [ -d "$grocery/Examples/GroceryExpress" ]; then
    cp "$grocery"/Examples/GroceryExpress/*.swift "$work/grocery/"
  elif git_dir="$(git -C "$grocery" rev-parse --git-dir 2>/dev/null)"; then
    case "$git_dir" in /*) ;; *) git_dir="$grocery/$git_dir" ;; esac
    git --git-dir="$git_dir" archive --format=tar HEAD:Examples/GroceryExpress | tar -x -C "$work/grocery" \
      || { echo "check-ios-sdk: no Examples/GroceryExpress in $grocery"; exit 2; }
  else
    echo "check-ios-sdk: $grocery is neither a checkout nor a git mirror of IFTTT/ConnectSDK-iOS"; exit 2
  fi
  mapfile -t files < <(find "$work/grocery" -maxdepth 1 -name '*.swift' | sort)
  [ "${#files[@]}" -gt 0 ] || { echo "check-ios-sdk: no Swift files in $grocery's Examples/GroceryExpress"; exit 2; }
  label="IFTTT's GroceryExpress, unchanged (${#files[@]} files)"
  typecheck_app 5 "$label" "$deployment" "${files[@]}"
  saved_status=$status
  typecheck_app 6 "$label" "$deployment" "${files[@]}" >"$work/grocery-6.out"
  status=$saved_status
  head -1 "$work/grocery-6.out" | sed 's/errors/errors (not failed: the app predates Swift 6)/'
  sed 1d "$work/grocery-6.out" | sed "s|$work/grocery/|Examples/GroceryExpress/|"
fi
fi  # type_checks

# ---------------------------------------------------------------------------------------------------------------------
# 6. Facts from the SDK's symbol graphs: the stubs must not be more permissive than Apple's declarations, and the
#    committed availability table (scripts/apple/ios-availability.tsv, what the CI check reads) must be this SDK's.

stub_modules=(CoreGraphics QuartzCore UIKit Combine SwiftUI CoreLocation BackgroundTasks AuthenticationServices Security)
availability_modules=(Swift _Concurrency _StringProcessing Foundation Dispatch os ObjectiveC Darwin "${stub_modules[@]}")
table="$root/scripts/apple/ios-availability.tsv"
symbols_tool="$(scripts/apple/build-tool.sh AppleSymbols "$cache/tools")" || exit 1
# The SDK's symbol graphs, extracted once per SDK and compiler (UIKit's takes about two minutes).
graphs="$cache/symbol-graphs/$module_key"
find "$cache/symbol-graphs" -mindepth 1 -maxdepth 1 ! -name "$module_key" -exec rm -rf {} + 2>/dev/null
sdk_graphs() {
  local module
  for module in "$@"; do
    [ -f "$graphs/$module/.done" ] && continue
    rm -rf "${graphs:?}/$module"; mkdir -p "$graphs/$module"
    if ! swift-symbolgraph-extract -module-name "$module" -target "$target" -sdk "$view" -resource-dir "$resources" \
        -module-cache-path "$module_cache" -output-dir "$graphs/$module" -minimum-access-level public \
        -skip-synthesized-members >"$graphs/$module.log" 2>&1; then
      echo "check-ios-sdk: the symbol graph of the SDK's $module could not be extracted:"; head -20 "$graphs/$module.log"
      exit 1
    fi
    touch "$graphs/$module/.done"
  done
}
host_triple="$(swift -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1)"
# Builds the stubs of $1 (a folder of stub sources) into $2 and extracts their symbol graphs into $2/graphs.
stub_graphs() {
  local sources="$1" out="$2" module
  mkdir -p "$out/graphs"
  for module in "${stub_modules[@]}"; do
    [ -f "$sources/$module.swift" ] || continue
    swiftc -parse-as-library -swift-version 6 -emit-module -module-name "$module" "$sources/$module.swift" \
      -emit-module-path "$out/$module.swiftmodule" -I "$out" >"$out/$module.log" 2>&1 \
      || { echo "check-ios-sdk: the $module stub does not compile"; head -20 "$out/$module.log"; return 1; }
    swift-symbolgraph-extract -module-name "$module" -I "$out" -target "$host_triple" -output-dir "$out/graphs" \
      -minimum-access-level public -skip-synthesized-members >>"$out/$module.log" 2>&1 \
      || { echo "check-ios-sdk: the $module stub's symbol graph could not be extracted"; head -20 "$out/$module.log"; return 1; }
  done
}

if [ "$client_mode" -eq 0 ]; then
  sdk_graphs "${stub_modules[@]}" ObjectiveC
  mkdir -p "$work/sdk-stub-graphs"
  for module in "${stub_modules[@]}" ObjectiveC; do cp -rs "$graphs/$module" "$work/sdk-stub-graphs/"; done
  # Self-test: a stub made more permissive than Apple's (CLRegion declared Sendable) must be caught.
  mkdir -p "$work/planted-stubs"
  cp Tests/AppleStubs/*.swift "$work/planted-stubs/"
  sed -i 's/^open class CLRegion: NSObject {/open class CLRegion: NSObject, @unchecked Sendable {/' \
    "$work/planted-stubs/CoreLocation.swift"
  if ! grep -q 'class CLRegion: NSObject, @unchecked Sendable' "$work/planted-stubs/CoreLocation.swift"; then
    echo "ios-sdk: stub self-test: could not plant a Sendable CLRegion (its declaration changed)"; status=1
  elif stub_graphs "$work/planted-stubs" "$work/planted" \
      && "$symbols_tool" stubs --sdk "$work/sdk-stub-graphs" --stubs "$work/planted/graphs" CoreLocation \
        >"$work/planted.out" 2>&1; then
    echo "ios-sdk: stub self-test FAILED: a Sendable CLRegion stub was not reported"; cat "$work/planted.out"; status=1
  elif ! grep -q 'CLRegion: conforms to Sendable' "$work/planted.out"; then
    echo "ios-sdk: stub self-test FAILED:"; cat "$work/planted.out"; status=1
  else
    echo "ios-sdk: stub self-test: a planted Sendable CLRegion is reported"
  fi
  # Self-test: a stub protocol without one of Apple's requirements (ASWebAuthenticationPresentationContextProviding
  # without presentationAnchor(for:)) must be caught.
  mkdir -p "$work/planted-requirement"
  cp Tests/AppleStubs/*.swift "$work/planted-requirement/"
  sed -i '/^    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor$/d' \
    "$work/planted-requirement/AuthenticationServices.swift"
  if grep -q 'func presentationAnchor(for' "$work/planted-requirement/AuthenticationServices.swift"; then
    echo "ios-sdk: stub self-test: could not remove presentationAnchor(for:) (its declaration changed)"; status=1
  elif stub_graphs "$work/planted-requirement" "$work/planted-req" \
      && "$symbols_tool" stubs --sdk "$work/sdk-stub-graphs" --stubs "$work/planted-req/graphs" AuthenticationServices \
        >"$work/planted-req.out" 2>&1; then
    echo "ios-sdk: stub self-test FAILED: a stub protocol without presentationAnchor(for:) was not reported"; status=1
  elif ! grep -q "ASWebAuthenticationPresentationContextProviding: lacks Apple's requirement presentationAnchor(for:)" \
      "$work/planted-req.out"; then
    echo "ios-sdk: stub self-test FAILED:"; cat "$work/planted-req.out"; status=1
  else
    echo "ios-sdk: stub self-test: a stub protocol without Apple's requirement presentationAnchor(for:) is reported"
  fi
  obligations_table="$root/scripts/apple/ios-obligations.tsv"
  if stub_graphs Tests/AppleStubs "$work/stubs"; then
    "$symbols_tool" stubs --sdk "$work/sdk-stub-graphs" --stubs "$work/stubs/graphs" --sdk-name "$sdk_name" \
      --obligations-out "$work/ios-obligations.tsv" "${stub_modules[@]}" >"$work/stubs.out" 2>&1 || status=1
    sed 's/^stubs:/ios-sdk: stubs:/; /^apple-symbols: .* obligations written/d' "$work/stubs.out"
    # The requirements table the Linux stub check (scripts/checks/50-apple.sh) reads must be this SDK's.
    if [ "$update_availability" -eq 1 ]; then
      cp "$work/ios-obligations.tsv" "$obligations_table"
      echo "ios-sdk: wrote ${obligations_table#"$root/"} ($(grep -vc '^#' "$obligations_table") entries)"
    elif cmp -s "$work/ios-obligations.tsv" "$obligations_table"; then
      echo "ios-sdk: ${obligations_table#"$root/"} is this SDK's ($(grep -vc '^#' "$obligations_table") entries)"
    else
      echo "ios-sdk: ${obligations_table#"$root/"} differs from what $sdk_name says; rewrite it with --update-availability:"
      diff "$obligations_table" "$work/ios-obligations.tsv" | head -20
      status=1
    fi
  else
    status=1
  fi
fi

if [ "$client_mode" -eq 0 ] && [ "$stubs_only" -eq 0 ]; then
  sdk_graphs "${availability_modules[@]}"
  mapfile -t graph_files < <(for module in "${availability_modules[@]}"; do find "$graphs/$module" -name '*.symbols.json'; done | sort)
  names_table="$root/scripts/apple/ios-names.txt"
  if "$symbols_tool" availability --deployment "$deployment" --sdk "$sdk_name" --out "$work/ios-availability.tsv" \
      --names-out "$work/ios-names.txt" "${graph_files[@]}" >"$work/availability.log" 2>&1; then
    if [ "$update_availability" -eq 1 ]; then
      cp "$work/ios-availability.tsv" "$table"
      cp "$work/ios-names.txt" "$names_table"
      echo "ios-sdk: wrote ${table#"$root/"} ($(grep -vc '^#' "$table") entries from $sdk_name for iOS $deployment)"
      echo "ios-sdk: wrote ${names_table#"$root/"} ($(grep -vc '^#' "$names_table") names)"
    elif cmp -s "$work/ios-availability.tsv" "$table" && cmp -s "$work/ios-names.txt" "$names_table"; then
      echo "ios-sdk: ${table#"$root/"} and ${names_table#"$root/"} are this SDK's ($(grep -vc '^#' "$table") entries for iOS $deployment, $(grep -vc '^#' "$names_table") names)"
    else
      echo "ios-sdk: ${table#"$root/"} or ${names_table#"$root/"} differs from what $sdk_name says; rewrite them with --update-availability:"
      diff "$table" "$work/ios-availability.tsv" | head -20
      diff "$names_table" "$work/ios-names.txt" | head -10
      status=1
    fi
  else
    echo "check-ios-sdk: the availability table could not be generated:"; cat "$work/availability.log"; status=1
  fi
fi

# ---------------------------------------------------------------------------------------------------------------------
# 7. The ignored artifacts, by rule.

if [ -s "$work/ignored" ]; then
  echo "ios-sdk: ignored, as artifacts of this SDK (Swift 5.8's standard library, pre-concurrency annotations):"
  awk -F'\t' -v rules_file="$work/rules" '
    BEGIN { n = 0; while ((getline line < rules_file) > 0) { if (line ~ /^[[:space:]]*(#|$)/) continue; n++; split(line, p, / \| /); why[n] = p[4]; msg[n] = p[3] } }
    { hits[$1] = hits[$1] "\n        " $4 " (Swift " $2 ")"; count[$1]++ }
    END { for (r = 1; r <= n; r++) if (count[r]) printf "  %d x \"%s\": %s%s\n", count[r], msg[r], why[r], hits[r] }' "$work/ignored"
fi
echo "ios-sdk: checked against $sdk_name for $target in $((SECONDS - start)) s"
exit $status
