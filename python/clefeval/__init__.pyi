"""Type hints of the clefeval package (see the docstrings in __init__.py)."""

import os
from typing import Any, Dict, Iterable, List, Literal, Mapping, Optional, Sequence, Tuple, Union, overload

__version__: str
DEFAULT_BUDGET: int
DEFAULT_TIMEOUT_SECONDS: float
BINARY_VARIABLE: str

#: A result: the fields of the command's JSON, as json.loads gives them.
Result = Dict[str, Any]
#: A file's path: a plain str is a path, never a text.
Path = Union[str, os.PathLike]
#: A file's text, given through a ``*_text`` argument.
Text = Union[str, bytes]
#: A pair of structures for recognize_many: two paths (run None for no
#: submission), or a mapping with one of gold, gold_text, gold_smiles and
#: one of run, run_text, run_smiles.
StructurePair = Union[Tuple[Path, Optional[Path]], Mapping[str, Union[Path, Text]]]
#: One path or several.
Paths = Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]]
Level = Literal["all", "basic", "intermediate", "complete"]
#: (doc, page, x, y, width, height), or a mapping with those keys.
Box = Union[Tuple[str, int, int, int, int, int], Mapping[str, Any]]
Tolerances = Union[str, Sequence[Union[int, float]], None]
#: Part K of N: (K, N) or "K/N", 1 ≤ K ≤ N; None for the whole evaluation.
Shard = Union[Tuple[int, int], str, None]

class ClefevalError(Exception):
    """Base of every error clefeval raises."""

class InputError(ClefevalError):
    """An input that cannot be scored."""

    #: The file (or ``<gold>``/``<run>`` for a text or list), None when unknown.
    file: Optional[str]
    #: The 1-based line (or position in a box list), None when unknown.
    line: Optional[int]
    #: Every finding, each with ``file``, ``line``, ``severity``, ``message``.
    diagnostics: List[Dict[str, Any]]

class WorkerError(ClefevalError):
    """No InChI worker process could be started."""

def flowchart_pair(
    gold: Optional[Path] = None,
    run: Optional[Path] = None,
    *,
    gold_text: Optional[Text] = None,
    run_text: Optional[Text] = None,
    levels: Union[Level, Sequence[Level]] = "all",
    denominator: Literal["union", "max"] = "union",
    induced: bool = False,
    ignore_direction: bool = False,
    edge_types: bool = False,
    exact_labels: bool = False,
    max_mappings: int = 100_000,
    time_limit: Optional[float] = None,
    budget: Optional[int] = ...,
    strict: bool = False,
) -> Result: ...
def flowchart(
    gold: Paths,
    runs: Paths,
    *,
    levels: Union[Level, Sequence[Level]] = "all",
    denominator: Literal["union", "max"] = "union",
    induced: bool = False,
    ignore_direction: bool = False,
    edge_types: bool = False,
    exact_labels: bool = False,
    max_mappings: int = 100_000,
    time_limit: Optional[float] = None,
    budget: Optional[int] = ...,
    strict: bool = False,
    threads: Optional[int] = None,
    shard: Shard = None,
) -> Result: ...
def segmentation(
    gold: Paths,
    runs: Paths,
    *,
    tolerances: Tolerances = None,
    tolerance_mm: Tolerances = None,
    pages: Union[str, os.PathLike, None] = None,
    overlays: Union[str, os.PathLike, None] = None,
    at: Optional[int] = None,
    shard: Shard = None,
    min_score: Optional[float] = None,
) -> Result: ...
def detection(
    gold: Union[str, os.PathLike, Mapping[str, Any]],
    runs: Union[
        str,
        os.PathLike,
        Sequence[Union[str, os.PathLike]],
        Sequence[Mapping[str, Any]],
        Mapping[str, Union[str, os.PathLike, Sequence[Mapping[str, Any]]]],
    ],
    *,
    iou_thresholds: Union[str, Sequence[float], None] = None,
    max_dets: Union[str, Sequence[int], None] = None,
    categories: Union[str, Sequence[int], None] = None,
    images: Union[str, Sequence[Union[int, str]], None] = None,
    use_cats: Optional[bool] = None,
    threads: Optional[int] = None,
    shard: Shard = None,
) -> Result: ...
def segmentation_boxes(
    gold: Union[Paths, Iterable[Box]],
    run: Union[Paths, Iterable[Box]],
    *,
    tolerances: Tolerances = None,
) -> Result: ...
def worker_command(worker: Union[str, os.PathLike, None] = None) -> List[str]: ...
def recognition(
    gold: Paths,
    runs: Paths,
    *,
    timeout: float = ...,
    jobs: Optional[int] = None,
    worker: Union[str, os.PathLike, None] = None,
    shard: Shard = None,
    name_column: Optional[str] = None,
    smiles_column: Optional[str] = None,
) -> Result: ...
def recognize_many(
    pairs: Iterable[StructurePair],
    *,
    inchi: Literal["workers", "in-process"] = "workers",
    timeout: float = ...,
    jobs: Optional[int] = None,
    worker: Union[str, os.PathLike, None] = None,
) -> List[Result]: ...
def recognize(
    gold: Optional[Path] = None,
    run: Optional[Path] = None,
    *,
    gold_text: Optional[Text] = None,
    run_text: Optional[Text] = None,
    gold_smiles: Optional[str] = None,
    run_smiles: Optional[str] = None,
    inchi: Literal["workers", "in-process"] = "workers",
    timeout: float = ...,
    worker: Union[str, os.PathLike, None] = None,
) -> Result: ...
def prior_art(
    qrels: Union[str, os.PathLike],
    runs: Paths,
    *,
    groups: Union[str, os.PathLike, None] = None,
    cutoff: int = 100,
    ranks: Sequence[int] = (),
    order: Literal["file", "score"] = "file",
    min_relevance: int = 1,
    ndcg_base: Literal[2, 10] = 10,
    compare: Union[str, Sequence[str]] = (),
    permutations: int = 10_000,
    seed: int = 0,
    correlate: Sequence[Tuple[str, str]] = (),
    threads: Optional[int] = None,
    shard: Shard = None,
) -> Result: ...
def passage(
    qrels: Union[str, os.PathLike],
    runs: Paths,
    *,
    groups: Union[str, os.PathLike, None] = None,
    cutoff: int = 100,
    ranks: Sequence[int] = (),
    order: Literal["file", "score"] = "file",
    min_relevance: int = 1,
    ndcg_base: Literal[2, 10] = 10,
    keep_headings: bool = False,
    compare: Union[str, Sequence[str]] = (),
    permutations: int = 10_000,
    seed: int = 0,
    correlate: Sequence[Tuple[str, str]] = (),
    threads: Optional[int] = None,
    shard: Shard = None,
) -> Result: ...
@overload
def merge(
    parts: Iterable[Union[Mapping[str, Any], str, os.PathLike]],
    *,
    text: Literal[False] = False,
) -> Result: ...
@overload
def merge(
    parts: Iterable[Union[Mapping[str, Any], str, os.PathLike]],
    *,
    text: Literal[True],
) -> str: ...
