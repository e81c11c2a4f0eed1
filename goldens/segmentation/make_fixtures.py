#!/usr/bin/env python3
"""Makes the segmentation fixtures once (needs rdkit, pillow; osra and
libtiff-tools for the submission and the TIFF variants). CI does not run it:
its outputs are committed.

- pages/<doc>.tif: multipage CCITT Group 4 TIFF, A4 at 300 dpi, with RDKit
  drawings of molecules placed on the pages (and a line of text);
- gold/gold.csv: the ink bounding box of every placed drawing
  (doc,page,x,y,width,height; width counts the last ink column);
- run-osra/<doc>.sdf: made by run_osra.sh (the real OSRA on every page).
"""
import csv, os, random
from PIL import Image, ImageDraw, ImageFont
from rdkit import Chem
from rdkit.Chem import Draw

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 2480, 3508  # A4 at 300 dpi

SMILES = [
    "c1ccccc1O", "CC(=O)Oc1ccccc1C(=O)O", "CN1C=NC2=C1C(=O)N(C(=O)N2C)C",
    "C1CCNCC1", "OC(=O)CCc1ccc(N)cc1", "c1ccc2ccccc2c1", "CCOC(=O)C1=CC=CN1",
    "Clc1ccc(cc1)C(c1ccccc1)N1CCNCC1",
]

# document -> pages -> list of (smiles index, x, y, drawing size, caption)
# Captions are set 12 px below the drawing's ink: not part of the gold box,
# a recognizer may take them in. Drawings 1 and 2 of EP-1000002-A1 page 2 are
# placed close together, and page 3 of EP-1000001-A1 holds only text and a
# box-and-arrow figure (no chemistry).
LAYOUT = {
    "EP-1000001-A1": [
        [(0, 300, 400, 500, None), (1, 1300, 500, 700, "(I)")],
        [(2, 400, 1500, 700, "Formula (II)")],
        [],
    ],
    "EP-1000002-A1": [
        [(3, 500, 600, 450, None), (4, 1400, 700, 600, "(3)"), (5, 600, 2200, 300, None)],
        [(6, 900, 1200, 600, None), (7, 300, 2600, 800, None), (0, 1020, 2650, 400, None)],
    ],
}


def ink_box(img):
    """Bounding box (x0, y0, x1, y1) of the non-white pixels, inclusive."""
    gray = img.convert("L").point(lambda v: 255 if v < 128 else 0)
    left, top, right, bottom = gray.getbbox()
    return left, top, right - 1, bottom - 1


def main():
    os.makedirs(os.path.join(HERE, "pages"), exist_ok=True)
    os.makedirs(os.path.join(HERE, "gold"), exist_ok=True)
    rows = []
    for doc, pages in LAYOUT.items():
        images = []
        for number, drawings in enumerate(pages, start=1):
            page = Image.new("L", (W, H), 255)
            draw = ImageDraw.Draw(page)
            font = ImageFont.load_default(size=40)
            draw.text((200, 150), f"{doc} page {number}", fill=0, font=font)
            if not drawings:
                draw.rectangle((800, 1000, 1500, 1300), outline=0, width=4)
                draw.text((900, 1120), "Step S1: mix", fill=0, font=font)
                draw.line((1150, 1300, 1150, 1600), fill=0, width=4)
                draw.rectangle((800, 1600, 1500, 1900), outline=0, width=4)
                draw.text((900, 1720), "Step S2: heat", fill=0, font=font)
            for index, x, y, size, caption in drawings:
                mol = Chem.MolFromSmiles(SMILES[index])
                drawing = Draw.MolToImage(mol, size=(size, size)).convert("L")
                # black and white: every light pixel becomes paper
                drawing = drawing.point(lambda v: 0 if v < 200 else 255)
                page.paste(drawing, (x, y))
                x0, y0, x1, y1 = ink_box(drawing)
                rows.append((doc, number, x + x0, y + y0, x1 - x0 + 1, y1 - y0 + 1))
                if caption:
                    draw.text((x + (x0 + x1) // 2 - 40, y + y1 + 12), caption, fill=0, font=font)
            images.append(page.convert("1", dither=Image.Dither.NONE))
        images[0].save(
            os.path.join(HERE, "pages", doc + ".tif"),
            save_all=True,
            append_images=images[1:],
            compression="group4",
            dpi=(300, 300),
        )
    with open(os.path.join(HERE, "gold", "gold.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["doc", "page", "x", "y", "width", "height"])
        w.writerows(rows)


if __name__ == "__main__":
    main()
