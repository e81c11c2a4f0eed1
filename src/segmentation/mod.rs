//! Chemical-diagram segmentation (SPEC §3): bounding boxes, matching at pixel
//! tolerances, precision/recall/F1 sweeps, TIFF page checks and overlays.
