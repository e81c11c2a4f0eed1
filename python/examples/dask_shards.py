"""Score one evaluation in parts on a Dask cluster and merge the parts.

Each part is ``clefeval.<task>(gold, runs, shard=(K, N))`` run as a Dask
task on one of the cluster's workers; the parts come back to this process
and ``clefeval.merge`` joins them into the JSON one whole run of
``clefeval <task> --format json`` writes, byte for byte.

    python dask_shards.py flowchart --gold G --run R1 --run R2 --parts 8 -o result.json
    python dask_shards.py segmentation --gold G --run R --pages P \\
        --scheduler tcp://scheduler.example.org:8786 -o result.json

Without ``--scheduler`` the parts run on a ``LocalCluster`` of
``--workers`` processes on this machine. With it, on the workers of that
scheduler: every worker needs the ``clefeval`` package (the version of
this one: ``merge`` refuses parts of another) and the data at the paths
given here, which the workers read (a shared file system, or copies at
the same place: the parts carry every input file's digest, and ``merge``
checks that they are the same). Recognition parts run the InChI library
in worker processes of their own, as ``clefeval.recognition`` does.

Needs ``pip install 'dask[distributed]'`` besides the package.
"""

import argparse
import sys

from dask.distributed import Client, LocalCluster

import clefeval

TASKS = ("flowchart", "segmentation", "recognition")


def options_of(args):
    """The keyword arguments of the task's folder function."""
    options = {}
    if args.task == "flowchart":
        options["levels"] = args.level
        options["threads"] = args.threads
    elif args.level != "all" or args.threads is not None:
        sys.exit("dask_shards.py: --level and --threads are flowchart options")
    if args.task == "segmentation":
        options["tolerances"] = args.tolerances
        options["pages"] = args.pages
    elif args.tolerances is not None or args.pages is not None:
        sys.exit("dask_shards.py: --tolerances and --pages are segmentation options")
    if args.task == "recognition":
        options["jobs"] = args.jobs
    elif args.jobs is not None:
        sys.exit("dask_shards.py: --jobs is a recognition option")
    return options


def score_in_parts(client, task, gold, runs, parts, **options):
    """The whole evaluation's JSON text, scored in ``parts`` parts as tasks
    of ``client``; with the worker that scored each part, in order."""
    score = getattr(clefeval, task)
    futures = [client.submit(score, gold, runs, shard=(k, parts), **options)
               for k in range(1, parts + 1)]
    results = client.gather(futures)
    holders = client.who_has(futures)
    workers = [", ".join(holders[future.key]) for future in futures]
    return clefeval.merge(results, text=True), workers


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Score an evaluation in parts on a Dask cluster; write the merged JSON.")
    parser.add_argument("task", choices=TASKS)
    parser.add_argument("--gold", action="append", required=True,
                        help="gold file or folder (repeat for several)")
    parser.add_argument("--run", action="append", required=True,
                        help="one run's file or folder (repeat for several runs)")
    parser.add_argument("--parts", type=int, default=8, help="N, the number of parts (default 8)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="a Dask scheduler (tcp://host:8786); default: a LocalCluster")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes of the LocalCluster (default 2)")
    parser.add_argument("-o", "--output", help="write the merged JSON here (default: stdout)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no note of which worker scored which part")
    parser.add_argument("--level", default="all", help="flowchart: the levels (default all)")
    parser.add_argument("--threads", type=int, help="flowchart: threads per part")
    parser.add_argument("--tolerances", help="segmentation: pixel tolerances (0..=55)")
    parser.add_argument("--pages", help="segmentation: folder of page images")
    parser.add_argument("--jobs", type=int, help="recognition: InChI workers per part")
    args = parser.parse_args(argv)
    if args.parts < 1:
        parser.error("--parts must be at least 1")
    options = options_of(args)

    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                               processes=True)
        client = Client(cluster)
    try:
        text, workers = score_in_parts(client, args.task, args.gold, args.run,
                                       args.parts, **options)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    if not args.quiet:
        for k, worker in enumerate(workers, start=1):
            print(f"part {k}/{args.parts}: {worker}", file=sys.stderr)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
