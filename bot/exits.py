"""The exit codes of every ``mexican-train-bot`` command: one table, documented in
docs/admin.md (section "Exit codes") and in ``--help``'s epilog.

| code | meaning                                                        | retry?                |
| ---- | -------------------------------------------------------------- | --------------------- |
| 0    | done: the command did what it was asked; the bot stopped on    | —                     |
|      | request; ``health``: the bot is healthy                        |                       |
| 1    | not now: Discord or the PostgreSQL server could not be reached | yes, later: it may    |
|      | (``init``, ``store copy``, the bot), a crash, ``store copy``'s | pass                  |
|      | check found a difference; ``health``: anything but healthy     |                       |
| 2    | fix something first: a setting, an argument, a database file,  | no: the same call     |
|      | a login refused, a database written by a newer release         | fails the same way    |
| 130  | interrupted (Ctrl-C in ``try``)                                | —                     |

``health`` only ever exits 0 or 1, whatever went wrong: it is the Docker image's HEALTHCHECK,
and Docker reserves 2 ("do not use this exit code"). A ``health`` that cannot even ask (the
endpoint is off, a bad setting) says so in its one line and reports unhealthy (1).
"""

from __future__ import annotations

#: Done; stopped on request; healthy.
EXIT_OK = 0
#: Not now: a server that could not be reached (try again later), a crash, a failed check.
EXIT_RETRY = 1
#: A setting, an argument or a file to fix first: a restart would fail the same way.
EXIT_FIX = 2
#: Ctrl-C in the terminal game (128 + SIGINT), as a shell reports it.
EXIT_INTERRUPTED = 130

#: ``health``'s codes, Docker HEALTHCHECK's contract: healthy, or not.
HEALTH_CODES = (EXIT_OK, EXIT_RETRY)
