#!/bin/sh
# Checks the fixtures written by make.py: Graphviz parses every DOT file
# (and the dot block of the Markdown answer) without an error or warning;
# then check.py decompresses and parses the draw.io files, parses the
# GraphML files, and reads every file back against its CLEF-IP source.
# Needs python3 and Graphviz (dot). Run from anywhere: sh check.sh
set -u
cd "$(dirname "$0")" || exit 2
command -v dot >/dev/null 2>&1 || { echo "check.sh: Graphviz (dot) is not installed" >&2; exit 2; }
status=0
count=0
for f in dot/gold/* dot/runs/*/*; do
    case "$f" in
        *.md) src=$(awk '/^```(dot|graphviz)[ \t]*$/ {inside = 1; next} /^```/ {inside = 0} inside' "$f") ;;
        *.dot | *.gv) src=$(cat "$f") ;;
        *) continue ;;
    esac
    count=$((count + 1))
    if [ -z "$src" ]; then
        echo "FAIL $f: no DOT text"; status=1; continue
    fi
    err=$(printf '%s\n' "$src" | dot -Tcanon 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -ne 0 ] || [ -n "$err" ]; then
        echo "FAIL $f: dot -Tcanon exit $rc: $err"; status=1
    else
        echo "ok   $f: dot -Tcanon"
    fi
done
echo "$count DOT files parsed by $(dot -V 2>&1)"
PYTHONDONTWRITEBYTECODE=1 python3 check.py || status=1
if [ "$status" -eq 0 ]; then echo "check.sh: all checks passed"; else echo "check.sh: FAILED"; fi
exit "$status"
