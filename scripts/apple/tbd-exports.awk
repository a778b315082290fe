# Prints the symbols a text-based stub (.tbd, versions 3 and 4) exports for arm64, one a line, as a linker names
# them: `symbols` and `weak-symbols` as written, `objc-classes` as _OBJC_CLASS_$_X and _OBJC_METACLASS_$_X,
# `objc-eh-types` as _OBJC_EHTYPE_$_X, `objc-ivars` as _OBJC_IVAR_$_X. Only the `exports` and `reexports` sections
# count (a stub's `undefineds` are what it needs), and in them only the lists whose archs/targets include arm64.
# Linker directives ($ld$...) are left out. Used by scripts/check-ios-sdk.sh; reads every file named.
function flush_list(   n, i, item, parts) {
  n = split(buffer, parts, /[ ,]+/)
  for (i = 1; i <= n; i++) {
    item = parts[i]
    gsub(/^'|'$/, "", item)
    if (item == "" || item ~ /^\$ld\$/) continue
    if (key == "objc-classes") { print "_OBJC_CLASS_$_" item; print "_OBJC_METACLASS_$_" item }
    else if (key == "objc-eh-types") print "_OBJC_EHTYPE_$_" item
    else if (key == "objc-ivars") print "_OBJC_IVAR_$_" item
    else print item
  }
}
FNR == 1 { section = ""; inlist = 0; arm64 = 0 }
/^[a-z-]+:/ { section = $1; sub(/:$/, "", section) }
/^---/ { section = ""; inlist = 0; arm64 = 0 }
section != "exports" && section != "reexports" { next }
/^  - (archs|targets):/ { arm64 = ($0 ~ /[[ ,]arm64(-ios)?[ ,\]]/) }
{
  line = $0
  if (!inlist && match(line, /^ +(symbols|weak-symbols|objc-classes|objc-eh-types|objc-ivars|thread-local-symbols): *\[/)) {
    key = line; sub(/^ +/, "", key); sub(/:.*/, "", key)
    line = substr(line, RSTART + RLENGTH); inlist = 1; buffer = ""
  }
  if (inlist) {
    done = index(line, "]")
    if (done) line = substr(line, 1, done - 1)
    buffer = buffer " " line
    if (done) { inlist = 0; if (arm64) flush_list() }
  }
}
