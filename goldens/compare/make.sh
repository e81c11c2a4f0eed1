#!/bin/sh
# Writes baseline.json and current.json: the flowchart goldens scored as
# one run named r, as recognizer-a read them (the baseline) and as
# recognizer-b read them (the current file). Run from the repository root
# after `cargo build --release`; tests/compare.rs checks that the files are
# what the command writes.
set -e
clefeval=${CLEFEVAL:-target/release/clefeval}
for pair in baseline:recognizer-a current:recognizer-b; do
    file=${pair%%:*}
    run=${pair#*:}
    "$clefeval" flowchart --gold goldens/flowchart/gold \
        --run "r=goldens/flowchart/runs/$run" --format json --quiet \
        >"goldens/compare/$file.json"
done
