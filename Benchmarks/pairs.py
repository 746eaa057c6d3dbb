#!/usr/bin/env python3
"""Times commands against each other in interleaved rounds, for issue 34's ratios.

    Benchmarks/pairs.py OUT.json RUNS PREPARE COMMAND...

Each round runs every command once, in turn (the order reversed every other round, so
neither side always goes first), PREPARE through the shell before each, untimed. A ratio
is taken within each round, the first command's time over each other's, and the figure is
the median of those ratios: a machine that slows down for a while slows both sides of a
round alike, where hyperfine's medians come from runs of one command after another.

OUT.json has hyperfine's shape ({"results": [{"command", "times"}]}, seconds) plus
"ratios": for each other command, its per-round ratios. Like `hyperfine -N`, commands are
split into words and run without a shell, output to /dev/null, after two warm-up rounds;
a command that fails stops the run.
"""
import json
import os
import shlex
import subprocess
import sys
import time


def run(argv, prepare):
    if prepare:
        subprocess.run(prepare, shell=True, check=True, stdout=subprocess.DEVNULL)
    with open(os.devnull, "r+b") as null:
        start = time.perf_counter_ns()
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[
            (os.POSIX_SPAWN_DUP2, null.fileno(), 0), (os.POSIX_SPAWN_DUP2, null.fileno(), 1)])
        _, status = os.waitpid(pid, 0)
        elapsed = time.perf_counter_ns() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"pairs.py: {shlex.join(argv)} exited with {os.waitstatus_to_exitcode(status)}")
    return elapsed / 1e9


def main():
    out, runs, prepare, *commands = sys.argv[1:]
    if len(commands) < 2:
        sys.exit("usage: pairs.py OUT.json RUNS PREPARE COMMAND COMMAND...")
    argvs = [shlex.split(c) for c in commands]
    times = [[] for _ in commands]
    for round_number in range(-2, int(runs)):
        order = list(range(len(commands)))
        if round_number % 2:
            order.reverse()
        measured = {i: run(argvs[i], prepare) for i in order}
        if round_number >= 0:
            for i, t in measured.items():
                times[i].append(t)
    ratios = [[a / b for a, b in zip(times[0], other)] for other in times[1:]]
    with open(out, "w") as f:
        json.dump({"results": [{"command": c, "times": t} for c, t in zip(commands, times)],
                   "ratios": ratios}, f)


if __name__ == "__main__":
    main()
