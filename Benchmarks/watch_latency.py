#!/usr/bin/env python3
"""Latency of `settings watch`, and what it costs while idle.

    watch_latency.py SETTINGS RUNS

For each debounce (the default 50 ms, and 0), one `settings watch` runs in the
background; RUNS times a `settings write` is run, and the time from the write's
return to the watch line arriving is taken. Then a watch is left idle for 3 s and its
wake-ups (context switches) and CPU time are read from /proc. Prints one line per
measurement: `latency DEBOUNCE_MS MEDIAN_MS P90_MS` and `idle WAKEUPS CPU_MS`.
"""
import os, statistics, subprocess, sys, tempfile, time

settings, runs = sys.argv[1], int(sys.argv[2])
config = tempfile.mkdtemp()
env = dict(os.environ, XDG_CONFIG_HOME=config)


def write(value):
    subprocess.run([settings, "write", "com.bench.watch", "n", "-int", str(value)], env=env, check=True)


write(0)
for debounce in (None, 0):
    extra = [] if debounce is None else ["--debounce", str(debounce)]
    watch = subprocess.Popen([settings, "watch", "com.bench.watch", *extra], env=env, stdout=subprocess.PIPE)
    time.sleep(0.3)
    latencies = []
    for i in range(1, runs + 1):
        write(i)
        returned = time.perf_counter()
        line = watch.stdout.readline()
        latencies.append((time.perf_counter() - returned) * 1000)
        assert line == f"n\t{i}\n".encode(), line
        time.sleep(0.08)  # past the debounce window, so each write is its own change
    watch.terminate()
    watch.wait()
    latencies.sort()
    print(f"latency {50 if debounce is None else debounce} {statistics.median(latencies):.2f} "
          f"{latencies[int(len(latencies) * 0.9) - 1]:.2f}")


def usage(pid):
    switches = 0
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
            switches += int(line.split()[1])
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime + stime
    return switches, ticks * 1000 / os.sysconf("SC_CLK_TCK")


watch = subprocess.Popen([settings, "watch", "com.bench.watch"], env=env, stdout=subprocess.PIPE)
time.sleep(0.5)
before = usage(watch.pid)
time.sleep(3)
after = usage(watch.pid)
watch.terminate()
watch.wait()
print(f"idle {after[0] - before[0]} {after[1] - before[1]:.0f}")
