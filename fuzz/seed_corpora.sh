#!/bin/sh
# Seeds every fuzz target's corpus (fuzz/corpus/<target>, gitignored) from
# the goldens. Run from anywhere; existing corpus files are kept.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
g=$root/goldens
c=$root/fuzz/corpus
seed() { # seed <target> <files...>
    target=$1
    shift
    mkdir -p "$c/$target"
    for f in "$@"; do
        [ -f "$f" ] && cp "$f" "$c/$target/$(basename "$(dirname "$f")")-$(basename "$f")"
    done
}
seed flowchart_parse "$g"/flowchart/gold/*.txt "$g"/flowchart/broken/*.txt "$g"/flowchart/runs/*/*.txt
seed segmentation_csv "$g"/segmentation/gold/*.csv "$g"/segmentation/run-shifted/*.csv
seed segmentation_sdf "$g"/segmentation/run-osra/*.sdf
seed tiff_pages "$g"/segmentation/pages/*.tif "$g"/segmentation/tiff-variants/*.tif
seed mermaid_read "$g"/flowchart/mermaid/gold/*.mmd "$g"/flowchart/mermaid/runs/*/*.m*
seed mermaid_read "$g"/flowchart/convert/mermaid/*/*.mmd "$g"/flowchart/convert/mermaid/tricky.mmd
seed dot_read "$g"/flowchart/formats/dot/gold/*.dot "$g"/flowchart/formats/dot/runs/*/*
seed graphml_read "$g"/flowchart/formats/graphml/gold/*.graphml "$g"/flowchart/formats/graphml/runs/*/*
seed drawio_read "$g"/flowchart/formats/drawio/gold/*.drawio "$g"/flowchart/formats/drawio/runs/*/*
seed molfile_read "$g"/recognition/gold/*.mol "$g"/recognition/runs/*/*.mol "$g"/recognition/osra/gold/*.mol
# One SMILES per file, from the RDKit-made cases; the tables as a whole.
mkdir -p "$c/smiles_read"
grep -v '^#' "$g"/recognition/smiles/rdkit_cases.tsv | cut -f1 | head -400 | awk -v d="$c/smiles_read" '{ f = sprintf("%s/case-%03d", d, NR); printf "%s", $0 > f; close(f) }'
seed smiles_table "$g"/recognition/smiles/rdkit_cases.tsv "$g"/recognition/smiles/measures/* "$g"/recognition/osra/runs/osra-smiles/*.csv
# coco_read takes a ground truth and a detections file joined by `|||`.
mkdir -p "$c/coco_read"
{ cat "$g"/detection/odd/gold.json; printf '|||'; cat "$g"/detection/odd/run.json; } >"$c/coco_read/odd.json"
# The demo's pages: images that name their pages, for segmentation's reading.
{ cat "$g"/detection/demo/gold.json; printf '|||'; cat "$g"/detection/demo/osra.json; } >"$c/coco_read/demo.json"
# The text-retrieval readers take runs, qrels and groups, plain or compressed.
seed retrieval_read "$g"/passage/doc/qrels.txt "$g"/passage/doc/groups.txt "$g"/passage/doc/runs/* \
    "$g"/passage/passage/qrels.txt "$g"/passage/passage/runs/* "$g"/passage/demo/runs/*
# A result file of every task, and the parts of one.
seed result_json "$g"/flowchart/expected/*.json "$g"/passage/expected/prior-art.default.json \
    "$g"/passage/expected/passage.default.json "$g"/recognition/expected/*.json \
    "$g"/detection/demo/expected.json "$g"/detection/odd/expected.json
# Results the goldens do not bundle (segmentation's and recognition's, and
# parts, which a detection part keeps its matches in), when a built
# clefeval is there.
bin=$root/target/release/clefeval
if [ -x "$bin" ]; then
    r=$c/result_json
    cd "$root"
    "$bin" segmentation --gold goldens/segmentation/gold --run goldens/segmentation/run-osra \
        --format json --quiet >"$r/segmentation.json" || true
    "$bin" segmentation --gold goldens/segmentation/gold --run goldens/segmentation/run-shifted \
        --format json --quiet --shard 2/2 >"$r/segmentation-part.json" || true
    "$bin" flowchart --gold goldens/flowchart/gold --run goldens/flowchart/runs/recognizer-a \
        --format json --quiet --shard 1/2 >"$r/flowchart-part.json" || true
    "$bin" detection --gold goldens/detection/demo/gold.json --run goldens/detection/demo/osra.json \
        --format json --quiet --shard 1/2 >"$r/detection-part.json" || true
    "$bin" recognition --gold goldens/recognition/gold --run goldens/recognition/runs/handmade \
        --format json --quiet >"$r/recognition.json" || true
    "$bin" recognition --gold goldens/recognition/gold --run goldens/recognition/runs/handmade \
        --format json --quiet --shard 2/2 >"$r/recognition-part.json" || true
fi
# Each task's result target: the result_json seeds (and what it grew) of
# that task.
for t in flowchart segmentation recognition retrieval detection; do
    case $t in
        retrieval) pattern='"task": *"(prior-art|passage)"' ;;
        *) pattern="\"task\": *\"$t\"" ;;
    esac
    mkdir -p "$c/result_$t"
    grep -lE "$pattern" "$c"/result_json/* 2>/dev/null | while read -r f; do
        cp "$f" "$c/result_$t/"
    done
done
echo "corpora seeded under $c"
