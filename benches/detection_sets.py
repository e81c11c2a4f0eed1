#!/usr/bin/env python3
"""Writes the detection bench sets under target/bench-detection/: 5,000
images with 100 detections each (seeded), gold boxes of every size, with
1 category (`one/`) and with 80 (`eighty/`): gold.json (COCO ground
truth) and run.json (detections). The detections are the gold boxes
moved and rescaled, duplicated, and false ones, scores uniform.

Run: python3 benches/detection_sets.py (plain Python, no packages)
"""

import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(os.path.dirname(HERE), "target", "bench-detection")
IMAGES, DETECTIONS = 5000, 100


def write_set(name, categories, seed):
    rng = random.Random(seed)
    images = [{"id": i + 1, "width": 1000, "height": 1000} for i in range(IMAGES)]
    anns, dets = [], []
    aid = 1
    for img in images:
        boxes = []
        for _ in range(rng.randint(1, 15)):
            size = rng.choice([rng.uniform(8, 31), rng.uniform(33, 95), rng.uniform(97, 400)])
            w, h = size * rng.uniform(0.7, 1.3), size * rng.uniform(0.7, 1.3)
            x, y = rng.uniform(0, 1000 - w), rng.uniform(0, 1000 - h)
            cat = rng.randint(1, categories)
            anns.append({"id": aid, "image_id": img["id"], "category_id": cat,
                         "bbox": [x, y, w, h], "area": w * h, "iscrowd": 0})
            aid += 1
            boxes.append((x, y, w, h, cat))
        for _ in range(DETECTIONS):
            if boxes and rng.random() < 0.6:
                x, y, w, h, cat = rng.choice(boxes)
                x, y = x + rng.gauss(0, w / 10), y + rng.gauss(0, h / 10)
                w, h = w * rng.uniform(0.85, 1.15), h * rng.uniform(0.85, 1.15)
                if rng.random() < 0.1:
                    cat = rng.randint(1, categories)
            else:
                w, h = rng.uniform(8, 300), rng.uniform(8, 300)
                x, y, cat = rng.uniform(0, 1000 - w), rng.uniform(0, 1000 - h), rng.randint(1, categories)
            dets.append({"image_id": img["id"], "category_id": cat,
                         "bbox": [round(x, 2), round(y, 2), round(w, 2), round(h, 2)],
                         "score": round(rng.random(), 5)})
    folder = os.path.join(OUT, name)
    os.makedirs(folder, exist_ok=True)
    gold = {"images": images, "annotations": anns,
            "categories": [{"id": c, "name": f"c{c}"} for c in range(1, categories + 1)]}
    with open(os.path.join(folder, "gold.json"), "w") as f:
        json.dump(gold, f)
    with open(os.path.join(folder, "run.json"), "w") as f:
        json.dump(dets, f)


if __name__ == "__main__":
    write_set("one", 1, 1)
    write_set("eighty", 80, 80)
