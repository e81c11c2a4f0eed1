#!/bin/sh
# Runs every fuzz target for SECONDS (default 600), two at a time, each
# with its dictionary and its seed corpus (fuzz/seed_corpora.sh is run
# first); libFuzzer's output of each goes to fuzz/logs/<target>.full.log
# (its start and end to fuzz/logs/<target>.log, which is committed) and a
# line per target to fuzz/logs/summary.txt (executions, executions per
# second, corpus size, peak memory, and whether it found anything; each
# run of the script adds its lines under a dated heading).
# Exit 1 when a target found something (its crash is under
# fuzz/artifacts/<target>/). Run from anywhere; needs cargo-fuzz.
#   fuzz/run_all.sh 600
#   FUZZ_TARGETS="result_json retrieval_read" fuzz/run_all.sh 60
set -u
seconds=${1:-600}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
logs=fuzz/logs
mkdir -p "$logs"
targets=${FUZZ_TARGETS:-$(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^clefeval-fuzz$')}

# The dictionary and extra libFuzzer flags of a target.
flags() {
    case $1 in
        flowchart_parse) echo "-dict=fuzz/flowchart.dict" ;;
        mermaid_read) echo "-dict=fuzz/mermaid.dict" ;;
        dot_read) echo "-dict=fuzz/dot.dict" ;;
        graphml_read | drawio_read) echo "-dict=fuzz/xml.dict" ;;
        smiles_read | smiles_table) echo "-dict=fuzz/smiles.dict" ;;
        coco_read) echo "-dict=fuzz/coco.dict" ;;
        retrieval_read) echo "-dict=fuzz/retrieval.dict" ;;
        result_*) echo "-dict=fuzz/result.dict" ;;
        tiff_pages) echo "-max_len=16384" ;;
        *) echo "" ;;
    esac
}

fuzz/seed_corpora.sh >/dev/null || exit 2
export RUSTC_BOOTSTRAP=1
for t in $targets; do
    cargo fuzz build -O "$t" 2>"$logs/$t.build.log" || {
        echo "$t: build failed, see $logs/$t.build.log" >&2
        exit 2
    }
done

run() {
    t=$1
    mkdir -p "fuzz/corpus/$t"
    full=$logs/$t.full.log
    # shellcheck disable=SC2046
    cargo fuzz run -O "$t" "fuzz/corpus/$t" -- $(flags "$t") \
        -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
        >"$full" 2>&1
    status=$?
    # The log kept (committed) is the start and the end of libFuzzer's
    # output: its settings, the seeds read, and the last progress lines,
    # the final statistics and any crash report.
    lines=$(wc -l <"$full")
    {
        head -n 20 "$full"
        if [ "$lines" -gt 80 ]; then
            echo "... $((lines - 80)) lines of progress left out ($full, not committed) ..."
            tail -n 60 "$full"
        else
            tail -n +21 "$full"
        fi
    } >"$logs/$t.log"
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$full" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$full" | tail -1)
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$full" | tail -1)
    units=$(find "fuzz/corpus/$t" -type f | wc -l)
    if [ "$status" -eq 0 ]; then
        found="in ${seconds} s, no finding"
    else
        found="stopped by a finding (exit $status, see $logs/$t.log)"
    fi
    echo "$t: ${runs:-?} runs (${rate:-?}/s), ${units} in the corpus, ${rss:-?} MB peak, $found" \
        >>"$logs/summary.txt"
    return "$status"
}

echo "# $(date -u '+%Y-%m-%d %H:%M') UTC, $seconds s per target" >>"$logs/summary.txt"
failed=0
set -- $targets
while [ $# -gt 0 ]; do
    a=$1
    shift
    if [ $# -gt 0 ]; then
        b=$1
        shift
        run "$a" &
        pa=$!
        run "$b" || failed=1
        wait "$pa" || failed=1
    else
        run "$a" || failed=1
    fi
done
tail -n "$(($(echo $targets | wc -w) + 1))" "$logs/summary.txt"
exit "$failed"
