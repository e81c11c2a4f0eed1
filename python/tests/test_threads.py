"""The GIL is released while scoring: another Python thread runs in the
middle of a call, and calls from several threads give the results of
calls made one by one."""

import stat
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import clefeval

from test_flowchart import GOLD_TEXT, RUN_TEXT
from test_recognition import ETHANOL


def test_other_threads_run_during_a_call(tmp_path):
    # A worker that never answers keeps the call busy for the timeout.
    worker = tmp_path / "silent-clefeval"
    worker.write_text("#!/bin/sh\nexec sleep 30\n")
    worker.chmod(worker.stat().st_mode | stat.S_IXUSR)
    window = []
    ticks = []

    def call():
        window.append(time.monotonic())
        clefeval.recognize(gold_text=ETHANOL, timeout=1.0, worker=worker)
        window.append(time.monotonic())

    thread = threading.Thread(target=call)
    thread.start()
    while thread.is_alive():
        ticks.append(time.monotonic())
        time.sleep(0.001)
    thread.join()
    start, end = window
    assert end - start >= 1.0
    during = [t for t in ticks if start + 0.3 < t < end - 0.3]
    assert len(during) > 10


def test_calls_from_threads_give_the_same_results():
    one = clefeval.flowchart_pair(gold_text=GOLD_TEXT, run_text=RUN_TEXT)
    with ThreadPoolExecutor(4) as pool:
        many = list(pool.map(lambda _: clefeval.flowchart_pair(gold_text=GOLD_TEXT, run_text=RUN_TEXT), range(16)))
    assert all(r == one for r in many)
