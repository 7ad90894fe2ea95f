"""A long run of the whole-bot fuzzer (tests/fuzz/machine.py): ONE JSON line.

    python scripts/fuzz.py --steps 5000 [--seed 1] [--per-example 50] [--seconds 600]

Random sequences of slash commands, real, stale and forged clicks, select values, autocompletes
with any text and legal moves, from several people in several channels, through the fake
Discord to the real bot on a fresh SQLite file, each step checked (see the machine's
docstring). Fields: ``steps``, ``interactions``, ``moves``, ``games``, ``finished`` (games
played to their end), ``failures`` (0, or 1 with ``failure``: hypothesis's shrunk steps and
what broke), ``seconds``, ``load_average``, ``seed``. Hypothesis draws the steps at random on
every run; ``--seed`` is the bot's own shuffle.

A run that is stopped still reports: on SIGTERM or SIGINT (``timeout``, Ctrl-C), or when
``--seconds`` have passed, the JSON line says what was done so far, with ``stopped`` (the
signal's name, or ``time budget``). After each batch of examples a progress line (the same
fields) goes to stderr, so even a run killed with SIGKILL has said how far it got.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from hypothesis import HealthCheck, settings
from hypothesis.reporting import with_reporter
from hypothesis.stateful import run_state_machine_as_test

from tests.fuzz.machine import BotFuzz, Driver


class Stopped(BaseException):
    """The run was told to stop (a signal, the time budget): report what was done."""


_stop_asked: list[str] = []  # why the run was told to stop, kept even if the raise is swallowed


def _stop(signum: int, _frame: object) -> None:
    """Remember the stop, then raise it: code under test that catches broadly (a task's
    teardown, hypothesis's own clean-up) may turn the raise into another error, and the
    remembered reason keeps that from being reported as a failure of the bot."""
    why = "time budget" if signum == signal.SIGALRM else signal.Signals(signum).name
    _stop_asked.append(why)
    raise Stopped(why)


def _unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    """A stop raised where Python cannot raise (a garbage-collector callback, a ``__del__``)
    is printed as "Exception ignored"; it is no error: :func:`_stop` kept it, and the run
    ends at its next check. Anything else is printed as Python would."""
    if not isinstance(unraisable.exc_value, Stopped):
        sys.__unraisablehook__(unraisable)


def main(
    steps: int, seed: int, per_example: int, seconds: float | None = None
) -> dict[str, object]:
    logging.basicConfig(level=logging.WARNING, handlers=[logging.NullHandler()])
    started = time.perf_counter()
    failure: str | None = None
    stopped: str | None = None
    report: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        driver = Driver(Path(tmp), seed=seed)
        BotFuzz.driver = driver
        sys.unraisablehook = _unraisable
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM):
            signal.signal(signum, _stop)
        if seconds is not None:
            signal.setitimer(
                signal.ITIMER_REAL, max(0.001, seconds - (time.perf_counter() - started))
            )
        try:
            # Batches of examples until the steps are done (hypothesis decides each length).
            while driver.counters.steps < steps and failure is None and not _stop_asked:
                try:
                    with with_reporter(report.append):
                        run_state_machine_as_test(
                            BotFuzz,
                            settings=settings(
                                max_examples=10,
                                stateful_step_count=per_example,
                                deadline=None,
                                database=None,
                                suppress_health_check=list(HealthCheck),
                            ),
                        )
                except Exception as exc:
                    if _stop_asked:
                        raise Stopped(_stop_asked[0]) from exc
                    what = "".join(traceback.format_exception_only(exc)).strip()
                    failure = ("\n".join(report) + "\n" + what)[-6000:]
                progress = {"progress": True, **dataclasses.asdict(driver.counters)}
                print(json.dumps(progress), file=sys.stderr, flush=True)
        except Stopped as exc:
            stopped = str(exc)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGALRM):
                signal.signal(signum, signal.SIG_IGN)  # the report is on its way
            driver.close()
    if stopped is None and _stop_asked:
        stopped = _stop_asked[0]  # the raise was swallowed on its way out; the stop was not
    out: dict[str, object] = dataclasses.asdict(driver.counters)
    if stopped is not None:
        out["stopped"] = stopped
    out["failures"] = 0 if failure is None else 1
    if failure is not None:
        out["failure"] = failure
    out["seconds"] = round(time.perf_counter() - started, 1)
    out["load_average"] = round(os.getloadavg()[0], 2)
    out["seed"] = seed
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=1000, help="steps to run, at least")
    parser.add_argument("--seed", type=int, default=7, help="the bot's shuffle seed")
    parser.add_argument("--per-example", type=int, default=50, help="most steps per example")
    parser.add_argument(
        "--seconds", type=float, help="stop after this long, and report what was done"
    )
    args = parser.parse_args()
    print(json.dumps(main(args.steps, args.seed, args.per_example, args.seconds)), flush=True)
