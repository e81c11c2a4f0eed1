/*
 * Small sample texts for the C examples and checks: a flowchart pair whose
 * figures are computed by hand in tests/native.rs, and MOL records of
 * ethanol (twice, atoms in opposite orders) and methanol.
 */
#ifndef CLEFEVAL_SAMPLES_H
#define CLEFEVAL_SAMPLES_H

/* A tiny flowchart pair: the decision's type differs and one label's case. */
static const char *GOLD =
    "NO 1 oval \"START\"\n"
    "NO 2 rectangle \"Read data\"\n"
    "NO 3 oval \"END\"\n"
    "DE 1 2 plain\n"
    "DE 2 3 plain\n";
static const char *RUN =
    "NO 1 oval \"START\"\n"
    "NO 2 diamond \"Read data\"\n"
    "NO 3 oval \"End\"\n"
    "DE 1 2 plain\n"
    "DE 2 3 plain\n";

/* Ethanol drawn C-C-O and O-C-C: the same structure. */
static const char *ETHANOL =
    "ethanol\n  example\n\n"
    "  3  2  0  0  0  0  0  0  0  0999 V2000\n"
    "    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "    2.5981    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "  1  2  1  0  0  0  0\n"
    "  2  3  1  0  0  0  0\n"
    "M  END\n";
static const char *ETHANOL_REVERSED =
    "ethanol\n  example\n\n"
    "  3  2  0  0  0  0  0  0  0  0999 V2000\n"
    "    2.5981    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "  1  2  1  0  0  0  0\n"
    "  2  3  1  0  0  0  0\n"
    "M  END\n";
/* Methanol: a different formula. */
static const char *METHANOL =
    "methanol\n  example\n\n"
    "  2  1  0  0  0  0  0  0  0  0999 V2000\n"
    "    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "    1.2990    0.7500    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0\n"
    "  1  2  1  0  0  0  0\n"
    "M  END\n";

#endif /* CLEFEVAL_SAMPLES_H */
