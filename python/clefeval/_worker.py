"""``python -m clefeval._worker``: one InChI worker process, answering the
requests of a worker pool on standard input and output until its input
ends, as ``clefeval inchi-worker`` does. Used when no ``clefeval`` binary
is found (see :func:`clefeval.worker_command`)."""

from clefeval._native import serve_inchi_worker

if __name__ == "__main__":
    serve_inchi_worker()
