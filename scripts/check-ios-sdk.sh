#!/usr/bin/env bash
# Type-checks the SDK against Apple's own iOS SDK, as an iOS developer's Xcode would compile the package: target
# arm64-apple-ios13.0 (the package's deployment target), every product in the package's language mode (Swift 6) and
# in Swift 5 mode, the example apps (for the iOS version each README names), the 2.8-style client files of
# Tests/ClientCompat, and any files you name. Then, from the SDK's symbol graphs, it compares every declaration of
# the stubs in Tests/AppleStubs with Apple's (a stub may be stricter, never more permissive; a planted Sendable
# CLRegion must be caught first) and checks that scripts/apple/ios-availability.tsv is this SDK's.
#
#   scripts/check-ios-sdk.sh [--sdk PATH]                   everything above (0 errors, bar the artifacts listed below)
#   scripts/check-ios-sdk.sh --theos-sdks MIRROR            the same, with the SDK extracted from a theos/sdks clone
#   scripts/check-ios-sdk.sh --client FILE... [--swift-version 5|6]   type-check FILEs as an app that imports the SDK
#   scripts/check-ios-sdk.sh --grocery-express PATH         also IFTTT's 2.8 example app, unchanged, from a checkout
#                                                           or git mirror of IFTTT/ConnectSDK-iOS (Swift 5: 0 errors;
#                                                           the Swift 6 errors are counted and listed)
#   scripts/check-ios-sdk.sh --update-availability          rewrite scripts/apple/ios-availability.tsv from the SDK
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
# clone with --theos-sdks. The extraction skips blobs a partial clone lacks (Foundation.tbd is not needed here).
#
# How: swiftc -typecheck -target arm64-apple-ios13.0 -sdk SDK -resource-dir DIR, where DIR holds only the Linux
# toolchain's `shims` and `clang` folders and the Dispatch and os API notes an Xcode toolchain ships (written below
# from their facts: without them the toolchain's own Dispatch module map collides with the SDK's). SwiftUI's
# interface has one os_log call with an interpolated message this compiler refuses: the script patches that call in
# its own view of the SDK (a tree of links into the SDK, with that one file copied), never in the SDK itself.
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

# This script's view of the SDK: links to every entry of the SDK, except along the path to SwiftUI's interface,
# which is a patched copy. $1 = SDK, $2 = view, $3 = the file's path inside the SDK.
link_tree() {
  local source="$1" view="$2" path="$3" first entry
  first="${path%%/*}"
  mkdir -p "$view"
  for entry in "$source"/* "$source"/.[!.]*; do
    [ -e "$entry" ] || [ -L "$entry" ] || continue
    [ "$(basename "$entry")" = "$first" ] && continue
    ln -sfn "$entry" "$view/$(basename "$entry")"
  done
  if [ "$path" = "$first" ]; then cp "$source/$first" "$view/$first"; chmod u+w "$view/$first"
  else link_tree "$source/$first" "$view/$first" "${path#*/}"; fi
}
swiftui_interface="System/Library/Frameworks/SwiftUI.framework/Modules/SwiftUI.swiftmodule/arm64-apple-ios.swiftinterface"
# The view is keyed by the SDK and the patch (bump `patch_version` when the patch changes), not by this whole script:
# a new view path would make the compiler rebuild its module cache (minutes).
patch_version=1
view_key="$(printf '%s\n' "$sdk" "$patch_version" | sha256sum | cut -c1-12)"
view="$cache/sdk-view/$view_key/$sdk_name"
if [ ! -f "$view/.ready" ]; then
  rm -rf "$cache/sdk-view"
  link_tree "$sdk" "$view" "$swiftui_interface"
  # `Environment.wrappedValue` logs a fault with `\(Value.self)` interpolated into an os_log StaticString message,
  # which this compiler refuses; the message loses the type name, nothing else changes.
  sed -i 's/Accessing Environment<\\(Value\.self)>'"'"'s value outside of/Accessing Environment'"'"'s value outside of/' \
    "$view/$swiftui_interface"
  if grep -q 'Accessing Environment<\\(Value.self)>' "$view/$swiftui_interface"; then
    echo "check-ios-sdk: the SwiftUI interface patch did not apply" >&2; exit 1
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
# Swift 5.9 API, back-deployed to iOS 13 by Xcode 15 and later; this SDK's standard library is Swift 5.8's.
* | Sources/IFTTTConnectCore/Activation/(AppleAdapters|ConnectButtonController\+Platform)\.swift|Sources/IFTTTConnectCore/Button/Apple/ConnectButton\+UIKit\.swift|Sources/IFTTTConnectLocation/Synchronization/(ConnectButtonController\+Synchronization|MainActorRegionMonitor|PlatformAdapters)\.swift | type 'MainActor' has no member 'assumeIsolated' | MainActor.assumeIsolated is Swift 5.9 API (iOS 13 and later with Xcode 15+); this SDK has Swift 5.8's standard library
* | Sources/IFTTTConnectLocation/CoreLocationRegionMonitor\.swift|Sources/IFTTTConnectLocation/Synchronization/Synchronizer\.swift|Sources/IFTTTConnectTesting/ActivationDoubles\.swift | type 'AsyncStream<Element>' has no member 'makeStream' | AsyncStream.makeStream(of:) is Swift 5.9 API (iOS 13 and later with Xcode 15+); this SDK has Swift 5.8's standard library
* | Sources/IFTTTConnectLocation/CoreLocationRegionMonitor\.swift|Sources/IFTTTConnectLocation/Synchronization/Synchronizer\.swift|Sources/IFTTTConnectTesting/ActivationDoubles\.swift | generic parameter 'Element' could not be inferred (same line) | the compiler's follow-on error of the missing AsyncStream.makeStream on the same line
# Typed throws (Swift 6): Xcode 16's standard library declares Result.get() and the checked continuations with typed throws.
* | Sources/IFTTTConnectCore/Activation/ConnectButtonController\+Async\.swift | thrown expression type 'any Error' cannot be converted to error type 'ConnectButtonControllerError' | Result.get() rethrows its Failure type (typed throws) in Swift 6's standard library, untyped in this SDK's Swift 5.8
* | Sources/IFTTTConnectCore/JSON/JSONParser\.swift | thrown expression type 'any Error' cannot be converted to error type 'ConnectDecodingError' | Result.get() rethrows its Failure type (typed throws) in Swift 6's standard library, untyped in this SDK's Swift 5.8
* | Sources/IFTTTConnectLocation/Synchronization/ConnectionsRegistry\.swift | thrown expression type 'any Error' cannot be converted to error type 'LocationError' | Result.get() rethrows its Failure type (typed throws) in Swift 6's standard library, untyped in this SDK's Swift 5.8
# Concurrency annotations Apple added to its SDKs after this one (Swift 6 mode only; Swift 5 mode warns).
6 | Sources/IFTTTConnectCore/Button/Apple/AboutViewController\.swift | reference to static property 'link' is not concurrency-safe because it involves shared mutable state | UIAccessibilityTraits constants are non-const globals in this SDK's UIAccessibilityConstants.h (imported as `static var`); the SDKs of Xcode 16, which apple.yml builds with, make them constants
6 | Sources/IFTTTConnectCore/Button/Apple/ConnectButton\+UIKit\.swift | reference to static property 'button' is not concurrency-safe because it involves shared mutable state | UIAccessibilityTraits constants are non-const globals in this SDK's UIAccessibilityConstants.h (imported as `static var`); the SDKs of Xcode 16, which apple.yml builds with, make them constants
6 | Sources/IFTTTConnectCore/Networking/ConnectionNetworkController\+Configuration\.swift | stored property 'callbackQueue' of 'Sendable'-conforming struct 'Configuration' contains non-Sendable type 'DispatchQueue' | DispatchQueue is Sendable in the SDKs of Xcode 16, not yet in this one
6 | Sources/IFTTTSDK/IFTTTAPIManager\.swift | stored property 'callbackQueue' of 'Sendable'-conforming struct 'State' contains non-Sendable type 'DispatchQueue' | DispatchQueue is Sendable in the SDKs of Xcode 16, not yet in this one
6 | Sources/IFTTTSDK/IFTTTAPIManager\.swift | capture of 'queue' with non-Sendable type 'DispatchQueue?' in a '@Sendable' closure [#SendableClosureCaptures] | DispatchQueue is Sendable in the SDKs of Xcode 16, not yet in this one
6 | Sources/IFTTTConnectLocation/Synchronization/HostCallback\.swift | let 'backgroundProcessQueue' is not concurrency-safe because non-'Sendable' type 'DispatchQueue' may have shared mutable state [#MutableGlobalVariable] | DispatchQueue is Sendable in the SDKs of Xcode 16, not yet in this one
6 | Sources/IFTTTConnectDesktop/LoopbackRedirectReceiver\.swift | stored property 'done' of 'Sendable'-conforming class 'LoopbackRedirectReceiver' has non-Sendable type 'DispatchSemaphore' | DispatchSemaphore is Sendable in the SDKs of Xcode 16, not yet in this one
# Swift 5 mode of the products: the package is built in Swift 6 mode only (swiftLanguageModes: [.v6]).
5 | Sources/IFTTTConnectCore/Activation/WebAuthenticationSession\.swift | call to main actor-isolated initializer 'init()' in a synchronous nonisolated context [#ActorIsolatedCall] | BrowserWebAuthenticationSession.init(opener:)'s main-actor default argument is accepted in Swift 6 mode (isolated default values, SE-0411), the package's only mode; Swift 5 mode refuses it
EOF_RULES
}

# Reads compiler output (-diagnostic-style=llvm) on standard input; $1 = Swift version, $2 = the unit's label.
# Prints each error no rule ignores, appends the ignored ones to $work/ignored, and prints a last line
# `ERRORS IGNORED WARNINGS`.
classify() {
  awk -v mode="$1" -v label="$2" -v root="$root/" -v ignored_file="$work/ignored" -v rules_file="$work/rules" '
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
      if (kind == "warning") { warnings++; warning_text[warnings] = where ": " message; next }
      count++; ewhere[count] = where; efile[count] = file; eat[count] = at; emsg[count] = message
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
  printf 'ios-sdk: %-58s %s errors' "$1 (Swift $2)" "$errors"
  [ "$ignored" -gt 0 ] && printf ', %s ignored' "$ignored"
  [ "$warnings" -gt 0 ] && printf ', %s warnings' "$warnings"
  printf ' (%s s)\n' "$((SECONDS - unit_start))"
  unit_start=$SECONDS
  echo "$out" | sed '$d' | head -80
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
printf 'import Foundation\n\nextension Foundation.Bundle {\n    static var module: Bundle { Bundle.main }\n}\n' >"$work/resource_bundle_accessor.swift"

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

start=$SECONDS
type_checks=1
[ "$stubs_only" -eq 1 ] || [ "$update_availability" -eq 1 ] && type_checks=0
if [ "$type_checks" -eq 1 ]; then
compile_products "$package_mode"
if [ "$client_mode" -eq 1 ]; then
  for version in "${client_versions[@]}"; do
    typecheck_app "$version" "${clients[*]#"$caller/"}" "$deployment" "${clients[@]}"
  done
  exit $status
fi
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
mapfile -t files < <(find Tests/ClientCompat -name '*.swift' | sort)
for version in 6 5; do typecheck_app "$version" "Tests/ClientCompat (${#files[@]} files)" "$deployment" "${files[@]}"; done

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

if [ "$client_mode" -eq 0 ] && [ "$update_availability" -eq 0 ]; then
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
  if stub_graphs Tests/AppleStubs "$work/stubs"; then
    "$symbols_tool" stubs --sdk "$work/sdk-stub-graphs" --stubs "$work/stubs/graphs" "${stub_modules[@]}" \
      >"$work/stubs.out" 2>&1 || status=1
    sed 's/^stubs:/ios-sdk: stubs:/' "$work/stubs.out"
  else
    status=1
  fi
fi

if [ "$client_mode" -eq 0 ] && [ "$stubs_only" -eq 0 ]; then
  sdk_graphs "${availability_modules[@]}"
  mapfile -t graph_files < <(for module in "${availability_modules[@]}"; do find "$graphs/$module" -name '*.symbols.json'; done | sort)
  if "$symbols_tool" availability --deployment "$deployment" --sdk "$sdk_name" --out "$work/ios-availability.tsv" \
      "${graph_files[@]}" >"$work/availability.log" 2>&1; then
    if [ "$update_availability" -eq 1 ]; then
      cp "$work/ios-availability.tsv" "$table"
      echo "ios-sdk: wrote ${table#"$root/"} ($(grep -vc '^#' "$table") entries from $sdk_name for iOS $deployment)"
    elif cmp -s "$work/ios-availability.tsv" "$table"; then
      echo "ios-sdk: ${table#"$root/"} is this SDK's ($(grep -vc '^#' "$table") entries for iOS $deployment)"
    else
      echo "ios-sdk: ${table#"$root/"} differs from what $sdk_name says; rewrite it with --update-availability:"
      diff "$table" "$work/ios-availability.tsv" | head -20
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
