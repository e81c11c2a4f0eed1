#!/usr/bin/env python3
"""Writes the detection demo: the pages of goldens/segmentation as COCO
images, its gold boxes as the ground truth (gold.json) and a real
detector run on those pages (osra.json): OSRA (Debian package `osra`,
2.1.3) with `-c -e -p` (as run_osra.sh), each structure's surrounding box as a detection and
OSRA's confidence estimate as its score.

Images are the (document, page) pairs in that order, ids from 1, named
`<doc>_p<page>`; page sizes come from the TIFF files (`tiffinfo`). A box
`x1xy1-x2xy2` of OSRA is x1, y1, x2 − x1 + 1, y2 − y1 + 1, as clefeval's
segmentation reads it; the gold box's area is width × height.

expected.json: pycocotools' twelve numbers for osra.json (written with
repr, so that they read back exactly).

Run: /path/to/venv/bin/python goldens/detection/demo/make_demo.py (needs
osra, tiffinfo, pycocotools).
"""

import csv
import json
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
SEG = os.path.join(HERE, "..", "..", "segmentation")


def page_sizes(tif):
    info = subprocess.run(["tiffinfo", tif], capture_output=True, text=True).stdout
    return [(int(w), int(h)) for w, h in re.findall(r"Image Width: (\d+) Image Length: (\d+)", info)]


def osra_boxes(tif):
    """Per page, OSRA's boxes with confidence, in its output order."""
    out = subprocess.run(["osra", "-c", "-e", "-p", "-f", "sdf", tif], capture_output=True, text=True).stdout
    found = []
    for record in out.split("$$$$"):
        fields = dict(re.findall(r">\s*<(\w+)>\s*\n([^\n]*)", record))
        if "Surrounding_box" not in fields:
            continue
        x1, y1, x2, y2 = map(int, re.match(r"(\d+)x(\d+)-(\d+)x(\d+)", fields["Surrounding_box"]).groups())
        page = int(fields.get("Page", "1"))
        found.append((page, [x1, y1, x2 - x1 + 1, y2 - y1 + 1], float(fields["Confidence_estimate"])))
    return found


def main():
    pages_dir = os.path.join(SEG, "pages")
    docs = sorted(f[:-4] for f in os.listdir(pages_dir) if f.endswith(".tif"))
    images, ids = [], {}
    for doc in docs:
        for n, (w, h) in enumerate(page_sizes(os.path.join(pages_dir, doc + ".tif")), start=1):
            ids[(doc, n)] = len(images) + 1
            images.append({"id": len(images) + 1, "file_name": f"{doc}_p{n}", "width": w, "height": h})
    categories = [{"id": 1, "name": "structure"}]
    annotations = []
    with open(os.path.join(SEG, "gold", "gold.csv")) as f:
        for row in csv.DictReader(f):
            x, y, w, h = (int(row[k]) for k in ("x", "y", "width", "height"))
            annotations.append({"id": len(annotations) + 1, "image_id": ids[(row["doc"], int(row["page"]))],
                                "category_id": 1, "bbox": [x, y, w, h], "area": w * h, "iscrowd": 0})
    with open(os.path.join(HERE, "gold.json"), "w") as f:
        json.dump({"images": images, "categories": categories, "annotations": annotations}, f, indent=1)
        f.write("\n")
    detections = []
    for doc in docs:
        for page, box, score in osra_boxes(os.path.join(pages_dir, doc + ".tif")):
            detections.append({"image_id": ids[(doc, page)], "category_id": 1, "bbox": box, "score": score})
    with open(os.path.join(HERE, "osra.json"), "w") as f:
        json.dump(detections, f, indent=1)
        f.write("\n")
    import contextlib
    import io
    import importlib.metadata
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO(os.path.join(HERE, "gold.json"))
        dt = gt.loadRes(os.path.join(HERE, "osra.json"))
        e = COCOeval(gt, dt, "bbox")
        e.evaluate()
        e.accumulate()
        e.summarize()
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        f.write('{"pycocotools": "%s", "stats": [%s]}\n'
                % (importlib.metadata.version("pycocotools"), ", ".join(repr(float(x)) for x in e.stats)))


if __name__ == "__main__":
    main()
