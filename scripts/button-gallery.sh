#!/usr/bin/env bash
# Regenerates the Connect Button gallery in docs/ from the code: docs/button-gallery.svg (every state in both styles,
# Spanish, right to left, the largest text size, a loaded icon) and docs/button-gallery.png made from it.
# The test ButtonSnapshotTests/theGalleryInTheDocsIsCurrent fails when the committed SVG differs from what the code
# draws, so run this after any change to the button's look, and commit both files.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/build-flags.sh
swift build "${test_build_flags[@]}" >/dev/null
BUTTON_GALLERY="$(pwd)/docs/button-gallery.svg" swift test --skip-build --filter writesTheGalleryWhenAsked >/dev/null
if command -v rsvg-convert >/dev/null; then
  rsvg-convert -o docs/button-gallery.png docs/button-gallery.svg
  cp docs/button-gallery.png Sources/IFTTTConnectCore/IFTTTConnectCore.docc/Resources/button-gallery.png
  echo "button-gallery: wrote docs/button-gallery.svg and docs/button-gallery.png"
else
  echo "button-gallery: wrote docs/button-gallery.svg (install librsvg2-bin for the PNG)"
fi
