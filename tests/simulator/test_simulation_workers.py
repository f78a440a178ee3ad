"""`manage.py simulation_workers` starts a worker that died again: soon after a long life, and
later and later while it keeps dying as soon as it starts (a broker that is down). The workers
themselves being killed, idle and busy, is tested on real processes in test_runs_on_workers."""

from __future__ import annotations

import io
import sys
import time

from simulator.management.commands.simulation_workers import Command, Worker


def _dies_at_once() -> Worker:
    worker = Worker(hostname="w-1", command=[sys.executable, "-c", "raise SystemExit(3)"])
    worker.start()
    worker.proc.wait()
    return worker


def _notice_and_restart(command: Command, worker: Worker) -> float:
    command._look_after(worker)  # notices the exit and sets a delay
    delay = worker.delay
    worker.restart_at = time.monotonic() - 0.01  # as if the delay had passed
    command._look_after(worker)  # starts it again
    worker.proc.wait()
    return delay


def test_a_worker_that_keeps_dying_at_start_waits_twice_as_long_each_time():
    out = io.StringIO()
    command, worker = Command(stdout=out), _dies_at_once()
    assert [_notice_and_restart(command, worker) for _ in range(8)] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert "w-1 exited 3; starting it again in 1 s" in out.getvalue()
    assert "w-1 started again (pid " in out.getvalue()


def test_a_worker_that_lived_long_is_started_again_after_a_second():
    command, worker = Command(stdout=io.StringIO()), _dies_at_once()
    for _ in range(4):
        _notice_and_restart(command, worker)
    worker.started -= 3600  # it had been playing chunks for an hour when it died
    assert _notice_and_restart(command, worker) == 1
