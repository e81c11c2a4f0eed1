"""Text retrieval: prior-art and passage runs against the command's JSON
on the goldens, with groups, options, comparisons and correlations."""

import clefeval

DOC = "goldens/passage/doc"
PSG = "goldens/passage/passage"


def test_prior_art_gives_the_commands_json(cli):
    args = ["--qrels", f"{DOC}/qrels.txt", "--groups", f"{DOC}/groups.txt", "--run", f"{DOC}/runs"]
    assert clefeval.prior_art(f"{DOC}/qrels.txt", f"{DOC}/runs", groups=f"{DOC}/groups.txt") \
        == cli("prior-art", *args)
    expected = cli("prior-art", *args, "--cutoff", "20", "--ranks", "3,7", "--order", "score",
                   "--min-relevance", "2", "--ndcg-base", "2", "--compare", "MAP@20",
                   "--permutations", "500", "--seed", "7", "--correlate", "EN,DE")
    got = clefeval.prior_art(f"{DOC}/qrels.txt", [f"{DOC}/runs"], groups=f"{DOC}/groups.txt",
                             cutoff=20, ranks=[3, 7], order="score", min_relevance=2,
                             ndcg_base=2, compare="MAP@20", permutations=500, seed=7,
                             correlate=[("EN", "DE")], threads=1)
    assert "comparisons" in got and "correlations" in got
    assert got == expected


def test_passage_gives_the_commands_json(cli):
    runs = [f"{PSG}/runs/lab1-bm25-PSG", f"{PSG}/runs/lab3-mix-PSG"]
    expected = cli("passage", "--qrels", f"{PSG}/qrels.txt", "--run", runs[0], "--run", runs[1],
                   "--keep-headings")
    assert clefeval.passage(f"{PSG}/qrels.txt", runs, keep_headings=True) == expected
