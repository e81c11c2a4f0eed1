"""clefeval from Python: the CLEF-IP evaluation tasks scored by the clefeval
library itself (flowcharts, chemical-diagram segmentation, chemical
structure recognition, prior-art and passage retrieval).

Results are plain Python objects (dicts, lists, numbers, strings, None)
with the fields of the JSON the ``clefeval`` command writes
(docs/json.md); the folder functions return exactly that document. Errors
are exceptions: :class:`InputError` (an input that cannot be scored, with
``file`` and ``line``), :class:`WorkerError` (no InChI worker could be
started), :class:`ValueError` (an argument out of its range), all but the
last under :class:`ClefevalError`.

Scoring releases the GIL: other Python threads run meanwhile, and calls
from several threads score in parallel.
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Mapping

from . import _native
from ._native import ClefevalError, InputError, WorkerError

__all__ = [
    "ClefevalError",
    "DEFAULT_BUDGET",
    "DEFAULT_TIMEOUT_SECONDS",
    "InputError",
    "WorkerError",
    "detection",
    "flowchart",
    "flowchart_pair",
    "merge",
    "passage",
    "prior_art",
    "recognition",
    "recognize",
    "recognize_many",
    "segmentation",
    "segmentation_boxes",
    "worker_command",
]

__version__: str = _native.VERSION

#: Units of search work per flowchart pair and level unless ``budget`` says
#: otherwise (about a minute of search); ``budget=None`` lifts the limit.
DEFAULT_BUDGET: int = _native.DEFAULT_BUDGET

#: Seconds the InChI library may take on one structure unless ``timeout``
#: says otherwise.
DEFAULT_TIMEOUT_SECONDS: float = _native.DEFAULT_TIMEOUT_SECONDS

#: The environment variable naming the ``clefeval`` binary whose
#: ``inchi-worker`` runs the InChI library.
BINARY_VARIABLE = "CLEFEVAL_BINARY"


def _paths(value):
    """One path (``str`` or ``os.PathLike``) or an iterable of paths, as a list."""
    if isinstance(value, (str, os.PathLike)):
        return [value]
    return list(value)


def _runs(runs):
    """Runs as the library takes them, each ``(name, path)``: a mapping
    ``{name: path}`` names its runs; a path (``str`` or ``os.PathLike``) or
    an iterable of paths gives runs named by their paths (``None``)."""
    if isinstance(runs, Mapping):
        return [(str(name), os.fspath(path)) for name, path in runs.items()]
    return [(None, os.fspath(path)) for path in _paths(runs)]


def _shard(shard):
    """A part as ``--shard`` takes it: ``"K/N"`` as is, ``(K, N)`` joined."""
    if shard is None or isinstance(shard, str):
        return shard
    try:
        index, count = shard
    except (TypeError, ValueError):
        raise TypeError(f'shard is (K, N) or "K/N", not {shard!r}') from None
    for number in (index, count):
        if isinstance(number, bool) or not isinstance(number, int):
            raise TypeError(f'shard is (K, N) with whole numbers, not {shard!r}')
    return f"{index}/{count}"


def _levels(levels):
    """``"all"``, one level name, or several, as a list of names."""
    if isinstance(levels, str):
        return [levels]
    return list(levels)


def _switches(levels, denominator, induced, ignore_direction, edge_types,
              exact_labels, max_mappings, time_limit, budget, strict):
    """The switches as the JSON the library's settings constructor reads."""
    return json.dumps({
        "levels": _levels(levels),
        "denominator": denominator,
        "induced": induced,
        "ignore_direction": ignore_direction,
        "edge_types": edge_types,
        "exact_labels": exact_labels,
        "max_mappings": max_mappings,
        "time_limit": time_limit,
        "budget": budget,
        "strict": strict,
    })


def _side(role, path, text, optional=False):
    """One side of a pair as the native module takes it: a path (a ``str``
    or any ``os.PathLike``) as a ``pathlib.Path``, or a text (given as
    ``<role>_text``, ``str`` or ``bytes``) as ``bytes``; ``None`` for an
    absent optional side."""
    if path is not None and text is not None:
        raise TypeError(f"give {role} (a path) or {role}_text (a text), not both")
    if text is not None:
        if isinstance(text, str):
            return text.encode()
        if isinstance(text, (bytes, bytearray)):
            return bytes(text)
        raise TypeError(f"{role}_text is a text (str or bytes), not {type(text).__name__}")
    if path is None:
        if optional:
            return None
        raise TypeError(f"give {role} (a path) or {role}_text (a text)")
    if isinstance(path, (bytes, bytearray)) or (isinstance(path, str) and "\n" in path):
        raise TypeError(f"{role} is a path (str or os.PathLike), and this looks like a "
                        f"file's text: give a text as {role}_text=")
    try:
        return pathlib.Path(os.fspath(path))
    except TypeError:
        raise TypeError(f"{role} is a path (str or os.PathLike), "
                        f"not {type(path).__name__}") from None


def flowchart_pair(gold=None, run=None, *, gold_text=None, run_text=None, format=None, levels="all",
                   denominator="union", induced=False, ignore_direction=False,
                   edge_types=False, exact_labels=False, max_mappings=100_000,
                   time_limit=None, budget=DEFAULT_BUDGET, strict=False):
    """Score one submitted flowchart against its gold flowchart.

    ``gold`` and ``run`` are paths (``str`` or any ``os.PathLike``); a
    file's text is given instead as ``gold_text`` or ``run_text`` (``str``
    or ``bytes``). Each side is read in its format: CLEF-IP text, Mermaid,
    Graphviz DOT (alone or in a Markdown answer), GraphML or draw.io, as
    its extension or content says; ``format`` (``"clef"``, ``"mermaid"``,
    ``"dot"``, ``"graphml"``, ``"drawio"``) reads both in that one
    (``ValueError`` for another name). The switches are those of
    ``clefeval flowchart``:
    ``levels`` (``"all"``, ``"basic"``, ``"intermediate"``, ``"complete"``,
    or a list of them), ``denominator`` (``"union"`` or ``"max"``),
    ``induced``, ``ignore_direction``, ``edge_types``, ``exact_labels``,
    ``max_mappings``, ``time_limit`` (seconds, or None), ``budget`` (work
    units per pair and level, or None for no limit) and ``strict``.

    Returns the fields of a topic in the command's JSON: ``gold_size``,
    ``run_size``, ``triplets`` (the triplet scores), ``levels`` (per level
    ``mcs``, ``distance``, ``exact``, ``nodes`` and ``edges`` precision,
    recall and F1;
    at the complete level also the label costs, ``histogram``,
    ``mappings`` and the best ``mapping``), and the warnings of both files
    in ``diagnostics`` (as lines) and ``diagnostic_list`` (as dicts).

    Raises :class:`InputError` when a path does not exist or a file has an
    error (``file`` and ``line`` name the first); a text is named
    ``<gold>`` or ``<run>`` there. Raises ``TypeError`` for a side given
    both ways or not at all, or a text given as a path.
    """
    gold, run = _side("gold", gold, gold_text), _side("run", run, run_text)
    switches = _switches(levels, denominator, induced, ignore_direction,
                         edge_types, exact_labels, max_mappings, time_limit,
                         budget, strict)
    return json.loads(_native.flowchart_pair(gold, run, switches, format))


def flowchart(gold, runs, *, levels="all", denominator="union",
              induced=False, ignore_direction=False, edge_types=False,
              exact_labels=False, max_mappings=100_000, time_limit=None,
              budget=DEFAULT_BUDGET, strict=False, threads=None, shard=None):
    """Score runs of flowcharts as ``clefeval flowchart --format json`` does.

    ``gold`` is a folder (or file, or a list of them) of gold flowcharts,
    ``runs`` one run's folder or a list of run folders; files pair by stem.
    The switches are those of :func:`flowchart_pair`; ``threads`` is the
    number of worker threads (default: all cores); ``shard`` scores part
    K of N of the topics (``(K, N)`` or ``"K/N"``, as ``--shard K/N``),
    for :func:`merge`. Returns the command's JSON document: ``task``,
    ``version``, ``settings``, ``inputs`` (every input file's digest),
    ``runs`` (each with its ``topics`` and ``summary``), ``rejected_runs``
    when a run holds nothing to score, ``shard`` for a part. A missing or
    rejected submitted file is scored at distance 1 and listed, as on the
    command line.

    Raises :class:`InputError` for a path that does not exist, gold data
    that cannot be read, or when no run can be scored; :class:`ValueError`
    for a part out of range.
    """
    switches = _switches(levels, denominator, induced, ignore_direction,
                         edge_types, exact_labels, max_mappings, time_limit,
                         budget, strict)
    return json.loads(_native.flowchart(_paths(gold), _runs(runs), switches,
                                        threads, _shard(shard)))


def _tolerance_spec(value):
    """A tolerance spec as the command line takes it: a ``str`` as is, a
    sequence of numbers joined with commas."""
    if value is None or isinstance(value, str):
        return value
    return ",".join(str(t) for t in value)


def segmentation(gold, runs, *, tolerances=None, tolerance_mm=None,
                 pages=None, overlays=None, at=None, shard=None, min_score=None):
    """Score runs of chemical-diagram boxes as ``clefeval segmentation --format json`` does.

    ``gold`` is a box CSV file or folder (or a list of them), ``runs`` one
    run's CSV/SDF file or folder or a list of runs. ``tolerances`` in
    pixels: ``"0..=55"`` (the default), ``"0,10,20"`` or a list of
    numbers; ``tolerance_mm`` in millimetres instead (needs ``pages``, the
    folder of ``<doc-id>.tif`` page images); ``overlays`` a folder for
    overlay PNGs drawn at tolerance ``at`` (needs ``pages``); ``shard``
    scores part K of N of the documents (``(K, N)`` or ``"K/N"``), for
    :func:`merge`; ``min_score`` leaves out the boxes of COCO detections
    files scored below it. Returns the command's JSON document (``settings``,
    ``inputs``, ``runs`` with micro-averaged ``tolerances``,
    ``max_unambiguous_tolerance`` and per-document figures,
    ``diagnostics``).

    Raises :class:`InputError` for a path that does not exist or gold data
    that cannot be read, :class:`ValueError` for a bad tolerance or part.
    """
    settings = {
        "tolerances": _tolerance_spec(tolerances),
        "tolerance_mm": _tolerance_spec(tolerance_mm),
        "at": at,
        "min_score": min_score,
    }
    return json.loads(_native.segmentation(_paths(gold), _runs(runs), json.dumps(settings),
                                           pages, overlays, _shard(shard)))


def _coco(value):
    """A COCO input as the library takes it: a path as is, anything else
    (a dict, a list of dicts) as its JSON text in bytes."""
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    return json.dumps(value, allow_nan=False).encode()


def _list_spec(value):
    """A list option as the command line takes it: a ``str`` as is, a
    sequence joined with commas."""
    if value is None or isinstance(value, str):
        return value
    return ",".join(str(v) for v in value)


def detection(gold, runs, *, iou_thresholds=None, max_dets=None, categories=None,
              images=None, use_cats=None, threads=None, shard=None):
    """Score detected boxes by COCO average precision as ``clefeval detection --format json`` does.

    ``gold`` is a COCO ground truth: a path, or the dict itself (``images``,
    ``annotations``, ``categories``). ``runs`` is one run or several: a
    path; a list of detection dicts (``image_id``, ``category_id``,
    ``bbox``, ``score``), one run named ``run 1``; a list of paths; or a
    mapping of names to paths or lists of detections. The options are
    pycocotools' ``Params``: ``iou_thresholds`` (a list of numbers or
    ``"0.5,0.75"``), ``max_dets`` (three numbers), ``categories`` and
    ``images`` (lists of ids), ``use_cats``; ``threads`` the worker
    threads; ``shard`` part K of N of the images (``(K, N)`` or
    ``"K/N"``), for :func:`merge`.

    Returns the command's JSON document: per run ``summary`` (the twelve
    numbers of pycocotools' ``summarize()``, each with its ``name``,
    ``iou``, ``area``, ``max_dets`` and ``value``), ``categories`` (AP per
    category), ``curves`` (precision at the 101 recall thresholds, IoU
    0.50 and 0.75) and ``images`` (``tp``, ``fp``, ``fn`` at IoU 0.50);
    ``rejected_runs`` for a run that cannot be read or names an image the
    gold lacks.

    Raises :class:`InputError` for a path that does not exist or a gold
    that cannot be read (the message names the JSON path), ``ValueError``
    for an option out of its rule, ``TypeError`` for an input of another
    kind.
    """
    if isinstance(runs, Mapping):
        given = [(str(name), _coco(run)) for name, run in runs.items()]
    elif isinstance(runs, (str, os.PathLike)):
        given = [(None, os.fspath(runs))]
    else:
        items = list(runs)
        if all(isinstance(item, (str, os.PathLike)) for item in items) and items:
            given = [(None, os.fspath(item)) for item in items]
        else:
            given = [(None, _coco(items))]
    settings = {
        "iou_thresholds": _list_spec(iou_thresholds),
        "max_dets": _list_spec(max_dets),
        "categories": _list_spec(categories),
        "images": _list_spec(images),
        "use_cats": use_cats,
    }
    return json.loads(_native.detection(_coco(gold), given, json.dumps(settings),
                                        threads, _shard(shard)))


def segmentation_boxes(gold, run, *, tolerances=None):
    """Score one run's boxes against the gold boxes at every tolerance.

    ``gold`` and ``run`` are each a box CSV/SDF path (``str`` or
    ``os.PathLike``, a file or a folder, or a list of them) or an iterable
    of boxes, each ``(doc, page, x, y, width, height)`` or a mapping with
    those keys (``doc``, ``doc_id`` or ``doc-id`` for the document);
    pages are numbered from 1, pixels from the top-left. ``tolerances`` as
    in :func:`segmentation` (pixels only).

    Returns one run of the command's JSON: ``tolerances`` (per tolerance
    ``t``, ``tp``, ``fp``, ``fn``, ``precision``, ``recall``, ``f1``),
    ``max_unambiguous_tolerance``, ``documents`` and the warnings.

    Raises :class:`InputError` at the first malformed box or line:
    ``file`` is the path, or ``<gold>``/``<run>`` for a list, ``line`` the
    line, or the box's 1-based position in the list.
    """
    return json.loads(_native.segmentation_boxes(gold, run,
                                                 _tolerance_spec(tolerances)))


def _version_of(binary):
    """The ``clefeval --version`` line of ``binary``, or None."""
    try:
        done = subprocess.run([binary, "--version"], capture_output=True,
                              text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@functools.lru_cache(maxsize=None)
def _installed_binary():
    """A ``clefeval`` binary of this package's version: beside the package,
    in the scripts folder of this Python, or on PATH; else None."""
    name = "clefeval.exe" if os.name == "nt" else "clefeval"
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [
        os.path.join(here, name),
        os.path.join(sysconfig.get_path("scripts"), name),
        shutil.which("clefeval"),
    ]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            if _version_of(candidate) == f"clefeval {__version__}":
                return candidate
    return None


def worker_command(worker=None):
    """The command that starts one InChI worker process, as a list.

    In order: the ``clefeval`` binary ``worker`` names; the one the
    environment variable ``CLEFEVAL_BINARY`` names; a ``clefeval`` binary
    of this package's version beside the package, in this Python's scripts
    folder, or on PATH; otherwise this Python running ``clefeval._worker``
    (the same worker loop, from this package's native module).
    """
    binary = worker if worker is not None else os.environ.get(BINARY_VARIABLE)
    if binary:
        return [os.fspath(binary), "inchi-worker"]
    found = _installed_binary()
    if found:
        return [found, "inchi-worker"]
    return [sys.executable, "-m", "clefeval._worker"]


def _startable(command):
    """``command`` after checking that its program can be started."""
    program = command[0]
    if shutil.which(program) is None:
        raise WorkerError(f"cannot start the InChI worker {program}: "
                          "no such executable file")
    return command


def recognition(gold, runs, *, timeout=DEFAULT_TIMEOUT_SECONDS, jobs=None,
                worker=None, shard=None, name_column=None, smiles_column=None):
    """Score runs of structures as ``clefeval recognition --format json`` does.

    ``gold`` is a folder (or file, or list) of gold structure files, ``runs``
    one run's folder or file or a list of them. MOL/SD files are one
    structure each, named by their stem; SMILES files (``.smi``,
    ``.smiles``) and
    tables (``.csv``, ``.tsv``) one per entry, named in the file (the
    table's columns found by their headers, or chosen by ``name_column``
    and ``smiles_column``); structures pair by name. Each structure
    goes to Standard InChI in ``jobs`` worker processes (default: the
    number of cores; see :func:`worker_command` for ``worker``), at most
    ``timeout`` seconds each. ``shard`` scores part K of N of the
    structures (``(K, N)`` or ``"K/N"``), for :func:`merge`. Returns the
    command's JSON document (``inputs``, per run the ``structures`` with
    their ``outcome`` and InChIs, and the ``summary`` with the recall of
    the automatic set).

    Raises :class:`InputError` for a path that does not exist or gold data
    that cannot be read, :class:`WorkerError` when no worker can start,
    :class:`ValueError` for a part out of range.
    """
    command = _startable(worker_command(worker))
    return json.loads(_native.recognition(_paths(gold), _runs(runs),
                                          timeout, jobs, command,
                                          _shard(shard), name_column,
                                          smiles_column))


def _mode(inchi):
    if inchi not in ("workers", "in-process"):
        raise ValueError(f'inchi is "workers" or "in-process", not {inchi!r}')
    return inchi == "in-process"


_PAIR_KEYS = {"gold", "gold_text", "gold_smiles", "run", "run_text", "run_smiles"}


def _structure_side(role, path, text, smiles, optional=False):
    """One side of a structure pair as the native module takes it: a path
    or a MOL/SD text as :func:`_side` gives them, or a SMILES (given as
    ``<role>_smiles``, a ``str``) as ``{"smiles": ...}``."""
    if smiles is None:
        return _side(role, path, text, optional)
    if path is not None or text is not None:
        raise TypeError(f"give one of {role}, {role}_text and {role}_smiles")
    if not isinstance(smiles, str):
        raise TypeError(f"{role}_smiles is a SMILES (str), not {type(smiles).__name__}")
    return {"smiles": smiles}


def _structure_pair(pair):
    """A pair of :func:`recognize_many` as its two sides."""
    if isinstance(pair, Mapping):
        unknown = set(pair) - _PAIR_KEYS
        if unknown:
            raise TypeError(f"a pair's keys are {', '.join(sorted(_PAIR_KEYS))}, "
                            f"not {', '.join(sorted(map(str, unknown)))}")
        return (_structure_side("gold", pair.get("gold"), pair.get("gold_text"),
                                pair.get("gold_smiles")),
                _structure_side("run", pair.get("run"), pair.get("run_text"),
                                pair.get("run_smiles"), optional=True))
    gold, run = pair
    return _side("gold", gold, None), _side("run", run, None, optional=True)


def recognize_many(pairs, *, inchi="workers", timeout=DEFAULT_TIMEOUT_SECONDS,
                   jobs=None, worker=None):
    """Score pairs of structures.

    Each pair is ``(gold, run)``, two paths of MOL/SDF files (``str`` or
    any ``os.PathLike``; ``run`` None for no submission: ``missing``), or
    a mapping with one of ``gold``, ``gold_text`` (a MOL/SD text: ``str``
    or ``bytes``) and ``gold_smiles`` (a SMILES, ``str``), and one of
    ``run``, ``run_text`` and ``run_smiles`` (no run key for no
    submission). A plain ``str`` is always a path. Returns one dict per
    pair, in order, with the fields of a structure in ``clefeval
    recognition``'s JSON: ``outcome`` (``match``, ``stereo``,
    ``formula``, ``wrong``, ``unreadable``, ``missing`` or ``manual``),
    ``gold_inchi``, ``run_inchi``, ``reason``, ``gold_warning``,
    ``run_warning``, and ``gold_smiles`` / ``run_smiles`` for a side given
    as SMILES.

    ``inchi="workers"`` (the default) converts in ``jobs`` worker
    processes started once for the whole call, as the command does: a
    crash or hang of the InChI library costs that structure alone
    (``unreadable`` with the reason, after ``timeout`` seconds for a
    hang). ``inchi="in-process"`` calls the library in this process, one
    call at a time under a lock: no process start, but NOT crash-isolated
    (a crash of the library ends the Python process, a hang hangs it).

    Raises :class:`InputError` for a path that cannot be read,
    :class:`WorkerError` when no worker can start, ``TypeError`` for a
    side given both ways or not at all, or a text given as a path.
    """
    in_process = _mode(inchi)
    command = [] if in_process else _startable(worker_command(worker))
    triples = []
    for index, pair in enumerate(pairs):
        gold, run = _structure_pair(pair)
        triples.append((str(index), gold, run))
    results = json.loads(_native.recognize_texts(triples, in_process, timeout,
                                                 jobs, command))
    for result in results:
        del result["name"]
    return results


def recognize(gold=None, run=None, *, gold_text=None, run_text=None, gold_smiles=None,
              run_smiles=None, inchi="workers", timeout=DEFAULT_TIMEOUT_SECONDS, worker=None):
    """Score one pair of structures: :func:`recognize_many` of one pair.

    ``gold`` and ``run`` are paths (``str`` or any ``os.PathLike``); a
    MOL/SDF text is given instead as ``gold_text`` or ``run_text``
    (``str`` or ``bytes``), a SMILES as ``gold_smiles`` or ``run_smiles``
    (``str``); no run at all scores ``missing``. With
    ``inchi="workers"`` every call starts a worker process (a few
    milliseconds); score many pairs with :func:`recognize_many`.
    """
    pair = {"gold": gold, "gold_text": gold_text, "gold_smiles": gold_smiles,
            "run": run, "run_text": run_text, "run_smiles": run_smiles}
    return recognize_many([{k: v for k, v in pair.items() if v is not None}],
                          inchi=inchi, timeout=timeout, jobs=1, worker=worker)[0]


def _retrieval(task, qrels, runs, groups, cutoff, ranks, order, min_relevance,
               ndcg_base, keep_headings, compare, permutations, seed,
               correlate, threads, shard):
    settings = {
        "cutoff": cutoff,
        "ranks": list(ranks),
        "order": order,
        "min_relevance": min_relevance,
        "ndcg_base": ndcg_base,
        "keep_headings": keep_headings,
        "compare": [compare] if isinstance(compare, str) else list(compare),
        "permutations": permutations,
        "seed": seed,
        "correlate": [list(pair) for pair in correlate],
    }
    return json.loads(_native.retrieval(
        task, os.fspath(qrels), _runs(runs),
        None if groups is None else os.fspath(groups), json.dumps(settings),
        threads, _shard(shard)))


def prior_art(qrels, runs, *, groups=None, cutoff=100, ranks=(),
              order="file", min_relevance=1, ndcg_base=10, compare=(),
              permutations=10_000, seed=0, correlate=(), threads=None,
              shard=None):
    """Score document runs as ``clefeval prior-art --format json`` does.

    ``qrels`` is the relevance judgements file, ``runs`` a run file or a
    folder of run files, or a list of them (plain or ``.gz``, ``.zip``,
    ``.tgz``), ``groups`` an optional topic-groups file. The options are
    the command's: ``cutoff`` (N), ``ranks`` (more P@k and R@k),
    ``order`` (``"file"`` or ``"score"``), ``min_relevance``,
    ``ndcg_base`` (10 or 2), ``compare`` (measures whose differences
    between runs are tested, with ``permutations`` and ``seed``),
    ``correlate`` (pairs of views, e.g. ``[("EN", "DE")]``), ``threads``.
    ``shard`` scores part K of N of the qrels topics (``(K, N)`` or
    ``"K/N"``, as ``--shard K/N``), for :func:`merge`: the part records
    the comparisons and correlations asked for and :func:`merge` makes
    them from every topic.

    Returns the command's JSON document: ``settings``, ``inputs``, ``runs`` (each with
    its per-topic rows and means, or its diagnostics when rejected),
    ``comparisons`` and ``correlations`` when asked for (of a whole
    evaluation only), ``shard`` for a part.

    Raises :class:`InputError` for a path that does not exist, qrels or
    groups that cannot be read, or when no run can be scored;
    :class:`ValueError` for an option out of range.
    """
    return _retrieval("prior-art", qrels, runs, groups, cutoff, ranks, order,
                      min_relevance, ndcg_base, False, compare, permutations,
                      seed, correlate, threads, shard)


def passage(qrels, runs, *, groups=None, cutoff=100, ranks=(), order="file",
            min_relevance=1, ndcg_base=10, keep_headings=False, compare=(),
            permutations=10_000, seed=0, correlate=(), threads=None,
            shard=None):
    """Score passage runs as ``clefeval passage --format json`` does.

    The arguments are those of :func:`prior_art`, and ``keep_headings``
    (keep the heading passages, which are removed before scoring
    otherwise). The document measures are followed by MAP(D) and
    Precision(D).
    """
    return _retrieval("passage", qrels, runs, groups, cutoff, ranks, order,
                      min_relevance, ndcg_base, keep_headings, compare,
                      permutations, seed, correlate, threads, shard)


def merge(parts, *, text=False):
    """Join the parts of one evaluation into its whole result, as ``clefeval merge`` does.

    ``parts`` is an iterable of the parts, in any order, each a result
    that a folder function returned with ``shard`` (a dict, or any
    mapping, as returned or as ``json.load`` read it) or the path of a
    result file that ``--shard K/N --format json`` wrote (``str`` or
    ``os.PathLike``). They must be the parts 1..N of one evaluation, each
    once: the same task, version, settings, runs and input files (the
    files compared by name, size and digest, not by path).

    Returns the result one whole evaluation gives (without ``shard``), as
    Python objects; with ``text=True`` the JSON text ``clefeval merge``
    writes, byte for byte the text ``--format json`` writes for one whole
    run.

    Raises :class:`InputError` when a part cannot be read or the parts are
    not those of one evaluation (the message names the part: its path, or
    ``parts[I]`` for the I-th object given, and says what is missing,
    doubled or different), :class:`TypeError` for a part of another type.
    """
    given = []
    for index, part in enumerate(parts):
        if isinstance(part, (str, os.PathLike)):
            given.append((os.fsdecode(part), None))
        elif isinstance(part, Mapping):
            given.append((f"parts[{index}]", json.dumps(dict(part), allow_nan=False)))
        else:
            raise TypeError(f"parts[{index}]: a part is a result (a mapping) or the path "
                            f"of a result file (str or os.PathLike), not "
                            f"{type(part).__name__}")
    whole = _native.merge(given)
    return whole if text else json.loads(whole)
