#!/bin/sh
# Writes the Mermaid fixtures of this folder with clefeval's own writer and
# has the real Mermaid parser read them (reference.jsonl), so that
# tests/flowchart_formats.rs can check that every file `clefeval convert
# --to mermaid` writes from the bundled flowcharts is read by Mermaid as
# clefeval reads it.
#
# Needs a release build (cargo build --release) and, for reference.jsonl,
# Node.js >= 20 with the npm packages mermaid and jsdom set up as
# ../mermaid/reference.mjs says:
#   mkdir -p /tmp/mermaid-ref && cd /tmp/mermaid-ref && npm init -y && npm install mermaid jsdom
# Run from this folder: sh make.sh
# To look at a drawing: sh make.sh FILE.mmd draws FILE.mmd.png with Mermaid
# in headless Chromium (needs chromium).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
clefeval="$top/target/release/clefeval"
modules=${NODE_PATH:-/tmp/mermaid-ref/node_modules}

if [ $# -gt 0 ]; then
    for file in "$@"; do
        page=$(mktemp --suffix=.html)
        cp "$modules/mermaid/dist/mermaid.min.js" "$(dirname "$page")/mermaid.min.js"
        python3 -c 'import html,sys; print("<!doctype html><body><pre class=\"mermaid\">"+html.escape(open(sys.argv[1]).read())+"</pre><script src=\"mermaid.min.js\"></script><script>mermaid.initialize({startOnLoad:true});</script></body>")' "$file" > "$page"
        chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=5000 \
            --window-size=1400,1400 --screenshot="$PWD/$file.png" "file://$page" 2>/dev/null
        echo "drew $file.png"
    done
    exit 0
fi

cd "$here"
rm -rf mermaid
"$clefeval" convert ../gold --to mermaid --out-dir mermaid/gold -q
# A run file with an error (recognizer-a's FC-0006, on purpose) is not
# converted: clefeval refuses it.
for run in recognizer-a recognizer-b; do
    for file in ../runs/$run/*.txt; do
        "$clefeval" convert "$file" --to mermaid --out-dir mermaid/$run -q 2>/dev/null ||
            echo "not converted: $file"
    done
done
"$clefeval" convert tricky.txt --to mermaid -o mermaid/tricky.mmd -q
cd mermaid
NODE_PATH="$modules" node ../../mermaid/reference.mjs gold/*.mmd recognizer-a/*.mmd \
    recognizer-b/*.mmd tricky.mmd > ../reference.jsonl
echo "wrote mermaid/ and reference.jsonl"
