#!/bin/sh
# The OSRA submission of the fixtures: the real recognizer (Debian package
# `osra`, version printed below) on every page of every pages/<doc>.tif.
set -eu
cd "$(dirname "$0")"
mkdir -p run-osra
osra --version 2>&1 | grep -i version  # made with "osra  version: 2.1.3"
for tif in pages/*.tif; do
    doc=$(basename "$tif" .tif)
    osra -c -e -f sdf "$tif" > "run-osra/$doc.sdf"
done
