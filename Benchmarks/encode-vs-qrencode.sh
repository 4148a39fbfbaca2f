#!/usr/bin/env bash
# Encoding speed of `qr` against libqrencode on the same payloads, in the same run, one thread each.
# Needs libqrencode-dev (apt-get install libqrencode-dev). Prints both tables and the ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product qr >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/qrencode_peer" Benchmarks/qrencode_peer.c -lqrencode
url=$(.build/release/qr bench make --print-payload url)
full=$(.build/release/qr bench make --print-payload full)
echo "== qr"
.build/release/qr bench make | tee "$work/qr.txt"
echo "== libqrencode $(pkg-config --modversion libqrencode 2>/dev/null || echo '')"
"$work/qrencode_peer" "$url" "$full" | tee "$work/peer.txt"
echo "== ratio (qr / qrencode, higher is faster)"
for case in short-url-M full-40-H; do
    ours=$(grep " $case " "$work/qr.txt" | sed 's/.*codes_per_second=//')
    peer=$(grep " $case " "$work/peer.txt" | sed 's/.*codes_per_second=//')
    awk -v c="$case" -v a="$ours" -v b="$peer" 'BEGIN { printf "%s: %.2f×\n", c, a / b }'
done
