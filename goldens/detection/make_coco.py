#!/usr/bin/env python3
"""Writes the detection fixtures: COCO ground truths and detection files
made to reach every odd case of pycocotools' COCOeval (bbox), and the
numbers pycocotools gives for them, in expected.json per case.

Cases (each a folder with gold.json, run.json, expected.json):
- odd: three categories (one without gold boxes), every area range,
  crowd boxes, an annotation id 0, two gold boxes of equal IoU with one
  detection, score ties within an image and across images, an image with
  more than 100 detections, gold images without boxes (one with
  detections, one without), a detection of a category the gold lacks,
  coordinates a few ulps off the IoU thresholds;
- random: 60 images, 4 categories, gold boxes of every size and
  detections made from them by shifting, scaling, duplicating and adding
  false ones, up to 130 per image, seeded;
- the random case again with useCats=0, and with iouThrs (.3, .5, .7) and
  maxDets (1, 5, 20) (expected_<variant>.json).

expected.json: pycocotools' version, the twelve numbers of summarize()
(`stats`, printed with repr so that they read back exactly), AP per
category (area all, the largest maxDets, IoU over the thresholds: the
mean of precision[:, :, k, 0, -1] above -1, or -1), and per image the
TP, FP and FN at IoU .50 (area all, the largest maxDets; detections
matched to crowd or ignored boxes in neither; summed over categories),
from evalImgs.

Run: python3 goldens/detection/make_coco.py (needs pycocotools, numpy).
The tests only read the files written here.
"""

import contextlib
import io
import json
import os
import random

import numpy as np
import pycocotools
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

HERE = os.path.dirname(os.path.abspath(__file__))


def write(path, value):
    with open(path, "w") as f:
        json.dump(value, f, indent=1)
        f.write("\n")


def evaluate(gold_path, run_path, use_cats=1, iou_thrs=None, max_dets=None):
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO(gold_path)
        dt = gt.loadRes(run_path)
        e = COCOeval(gt, dt, "bbox")
        e.params.useCats = use_cats
        if iou_thrs is not None:
            e.params.iouThrs = np.array(iou_thrs)
        if max_dets is not None:
            e.params.maxDets = list(max_dets)
        e.evaluate()
        e.accumulate()
        e.summarize()
    p = e.params
    precision = e.eval["precision"]
    per_category = []
    for k in range(precision.shape[2]):
        s = precision[:, :, k, 0, -1]
        per_category.append(float(np.mean(s[s > -1])) if (s > -1).any() else -1.0)
    t50 = [i for i, t in enumerate(p.iouThrs) if t == 0.5]
    per_image = {}
    if t50:
        t = t50[0]
        for ev in e.evalImgs:
            if ev is None or ev["aRng"] != p.areaRng[0] or ev["maxDet"] != p.maxDets[-1]:
                continue
            counts = per_image.setdefault(str(ev["image_id"]), [0, 0, 0])
            dtm, dtig = ev["dtMatches"][t], ev["dtIgnore"][t]
            gtm, gtig = ev["gtMatches"][t], ev["gtIgnore"]
            counts[0] += int(np.sum((dtm != 0) & ~dtig.astype(bool)))
            counts[1] += int(np.sum((dtm == 0) & ~dtig.astype(bool)))
            counts[2] += int(np.sum((gtig == 0) & (gtm == 0)))
    return {
        "made_by": "pycocotools " + pycocotools.__version__ if hasattr(pycocotools, "__version__")
        else "pycocotools",
        "params": {"use_cats": use_cats, "iou_thresholds": [float(x) for x in p.iouThrs],
                   "max_dets": list(p.maxDets)},
        "stats": [float(x) for x in e.stats],
        "categories": [int(c) for c in p.catIds] if use_cats else [-1],
        "per_category": per_category,
        "per_image": per_image,
    }


def odd_case():
    images = [{"id": i} for i in (1, 2, 3, 4, 5, 6, 7)]
    categories = [{"id": 1, "name": "structure"}, {"id": 2, "name": "table"},
                  {"id": 9, "name": "never"}]
    anns, dets = [], []

    def gt(aid, img, cat, box, crowd=0, area=None):
        anns.append({"id": aid, "image_id": img, "category_id": cat, "bbox": box,
                     "area": box[2] * box[3] if area is None else area, "iscrowd": crowd})

    def det(img, cat, box, score):
        dets.append({"image_id": img, "category_id": cat, "bbox": box, "score": score})

    # Image 1: every area range; a crowd box absorbing two detections.
    gt(0, 1, 1, [10, 10, 20, 20])            # id 0: matched but counted as a miss
    gt(11, 1, 1, [100, 100, 50, 50])         # medium
    gt(12, 1, 1, [300, 300, 120, 110])       # large
    gt(13, 1, 1, [500, 10, 200, 200], crowd=1)
    gt(14, 1, 2, [50, 400, 40, 40], area=900.5)  # area field, not w*h, decides the range
    det(1, 1, [10, 10, 20, 20], 0.9)
    det(1, 1, [101, 101, 50, 50], 0.8)
    det(1, 1, [300, 300, 120, 110], 0.8)     # tie with the one before
    det(1, 1, [510, 20, 50, 50], 0.7)        # inside the crowd box
    det(1, 1, [600, 100, 60, 60], 0.6)       # inside the crowd box too
    det(1, 2, [50, 400, 40, 41], 0.95)
    det(1, 7, [0, 0, 5, 5], 0.99)            # a category the gold lacks
    # Image 2: two gold boxes of equal IoU with one detection (the last taken).
    gt(21, 2, 1, [0, 0, 10, 10])
    gt(22, 2, 1, [10, 0, 10, 10])
    det(2, 1, [5, 0, 10, 10], 0.5)
    # Image 3: IoU a few ulps around .5, .75 and .95.
    gt(31, 3, 1, [0, 0, 100, 100])
    det(3, 1, [0, 0, 100, 200], 0.8)         # IoU exactly .5
    det(3, 1, [0, 0, 100, 200.00000000000003], 0.8)  # just below .5: ties across images
    gt(32, 3, 2, [0, 0, 100, 100])
    det(3, 2, [0, 0, 100, 75], 0.8)          # IoU .75
    gt(33, 3, 2, [200, 200, 100, 100])
    det(3, 2, [200, 200, 95, 100], 0.8)      # IoU .95
    det(3, 2, [200, 200, 94.99999999999999, 100], 0.8)
    # Image 4: more than 100 detections, a few good ones late in score order.
    for j in range(8):
        gt(40 + j, 4, 1, [j * 60, 0, 50, 50])
    rng = random.Random(4)
    for n in range(130):
        j = n % 8
        jitter = rng.uniform(-8, 8)
        det(4, 1, [j * 60 + jitter, jitter, 50, 50], round(rng.random(), 3))
    # Image 5: gold boxes, no detection. Image 6: detections, no gold.
    gt(51, 5, 2, [10, 10, 30, 30])
    det(6, 2, [10, 10, 30, 30], 0.4)
    # Image 7: neither.
    gold = {"images": images, "categories": categories, "annotations": anns}
    return gold, dets


def random_case():
    rng = random.Random(2024)
    images = [{"id": 1000 + i, "file_name": f"EP{i:07d}_p0001.tif"} for i in range(60)]
    categories = [{"id": c, "name": f"c{c}"} for c in (1, 2, 3, 4)]
    anns, dets = [], []
    aid = 1
    for img in images:
        n = rng.randint(0, 12)
        for _ in range(n):
            size = rng.choice([rng.uniform(4, 31), rng.uniform(33, 95), rng.uniform(97, 300)])
            w, h = size * rng.uniform(0.6, 1.4), size * rng.uniform(0.6, 1.4)
            x, y = rng.uniform(0, 800), rng.uniform(0, 800)
            cat = rng.choice([1, 2, 3, 4])
            crowd = 1 if rng.random() < 0.04 else 0
            anns.append({"id": aid, "image_id": img["id"], "category_id": cat,
                         "bbox": [x, y, w, h], "area": w * h * rng.uniform(0.7, 1.0),
                         "iscrowd": crowd})
            aid += 1
            for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
                dx, dy = rng.gauss(0, w / 8), rng.gauss(0, h / 8)
                sw, sh = rng.uniform(0.8, 1.2), rng.uniform(0.8, 1.2)
                dcat = cat if rng.random() < 0.9 else rng.choice([1, 2, 3, 4])
                dets.append({"image_id": img["id"], "category_id": dcat,
                             "bbox": [x + dx, y + dy, w * sw, h * sh],
                             "score": round(rng.random(), rng.choice([2, 6]))})
        for _ in range(rng.choice([0, 3, 10, 110])):
            w, h = rng.uniform(5, 200), rng.uniform(5, 200)
            dets.append({"image_id": img["id"], "category_id": rng.choice([1, 2, 3, 4]),
                         "bbox": [rng.uniform(0, 800), rng.uniform(0, 800), w, h],
                         "score": round(rng.random(), 2)})
    gold = {"images": images, "categories": categories, "annotations": anns}
    return gold, dets


def main():
    for name, make in (("odd", odd_case), ("random", random_case)):
        folder = os.path.join(HERE, name)
        os.makedirs(folder, exist_ok=True)
        gold, dets = make()
        gold_path, run_path = os.path.join(folder, "gold.json"), os.path.join(folder, "run.json")
        write(gold_path, gold)
        write(run_path, dets)
        write(os.path.join(folder, "expected.json"), evaluate(gold_path, run_path))
        if name == "random":
            write(os.path.join(folder, "expected_pooled.json"),
                  evaluate(gold_path, run_path, use_cats=0))
            write(os.path.join(folder, "expected_params.json"),
                  evaluate(gold_path, run_path, iou_thrs=[0.3, 0.5, 0.7], max_dets=[1, 5, 20]))
        print(name, evaluate(gold_path, run_path)["stats"])


if __name__ == "__main__":
    main()
