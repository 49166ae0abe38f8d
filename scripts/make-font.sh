#!/usr/bin/env bash
# Builds public/fonts/layercast-sans-{regular,bold}.woff2: subsets of Noto Sans CJK SC (SIL Open
# Font License 1.1, public/fonts/OFL.txt) holding every character the scenes and pages use, plus
# Latin, digits and punctuation. The pages and the canvas renderer use this face first, so
# Chinese labels never render as empty boxes on a machine without a CJK font.
#
#   scripts/make-font.sh            # rebuild both files from the current sources
#
# Which characters: printable ASCII, Latin-1, general and CJK punctuation, full-width forms, and
# every non-ASCII character found in Sources/LayercastScenes/**/*.swift, public/**/*.{html,js,css}
# and public/fonts/glyphs.txt. To add glyphs (a new label, a campaign's words), use them in a
# scene or page, or list them in public/fonts/glyphs.txt, then run this script and commit the
# two .woff2 files. Characters outside the subset fall back to the system's fonts.
#
# Needs: Debian's fonts-noto-cjk (the installed one, or else the package is downloaded with
# `apt-get download` and unpacked into a temporary directory: nothing is installed, so the
# machine keeps no CJK system font) and fontTools with brotli (pip `fonttools brotli`, or
# Debian's python3-fonttools python3-brotli). For developers only: CI tests the committed files.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

out=public/fonts
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fonts=/usr/share/fonts/opentype/noto
if [[ ! -f $fonts/NotoSansCJK-Regular.ttc || ! -f $fonts/NotoSansCJK-Bold.ttc ]]; then
    echo "make-font: unpacking Debian's fonts-noto-cjk into $work (not installed)"
    (cd "$work" && apt-get download fonts-noto-cjk >/dev/null && dpkg-deb -x fonts-noto-cjk_*.deb root)
    fonts=$work/root/usr/share/fonts/opentype/noto
fi

if ! python3 -c 'import fontTools.subset, brotli' >/dev/null 2>&1; then
    python3 -m pip install fonttools brotli || apt-get install -y --no-install-recommends python3-fonttools python3-brotli
fi

# Every non-ASCII character the scenes and pages use (comments included: cheap, and safe).
python3 - "$work/text.txt" <<'PY'
import pathlib, sys
files = list(pathlib.Path("Sources/LayercastScenes").rglob("*.swift"))
for pattern in ("*.html", "*.js", "*.css"):
    files += pathlib.Path("public").rglob(pattern)
files.append(pathlib.Path("public/fonts/glyphs.txt"))
chars = set()
for path in files:
    if path.is_file():
        chars |= {c for c in path.read_text(encoding="utf-8") if ord(c) > 0x7E and c.isprintable()}
pathlib.Path(sys.argv[1]).write_text("".join(sorted(chars)), encoding="utf-8")
print(f"make-font: {len(chars)} non-ASCII characters from {len(files)} files")
PY

# ASCII, Latin-1, general punctuation, arrows, CJK symbols and punctuation, full-width forms.
unicodes="U+0020-007E,U+00A0-00FF,U+2010-2027,U+2030-203A,U+2190-2193,U+2212,U+3000-303F,U+FF01-FF5E"
for weight in Regular Bold; do
    lower=$(echo "$weight" | tr 'A-Z' 'a-z')
    # Font number 2 of the collection is Noto Sans CJK SC.
    python3 -m fontTools.subset "$fonts/NotoSansCJK-$weight.ttc" --font-number=2 \
        --unicodes="$unicodes" --text-file="$work/text.txt" \
        --layout-features='kern,liga,locl,palt,halt,vert,ccmp' --no-hinting --desubroutinize \
        --name-IDs='*' --flavor=woff2 --output-file="$out/layercast-sans-$lower.woff2"
    echo "make-font: $out/layercast-sans-$lower.woff2 $(stat -c %s "$out/layercast-sans-$lower.woff2") bytes"
done
