#!/usr/bin/env python3
"""How the cost of a one-key read and a one-key write grows with the domain, from 10 to
1,000,000 keys: settings against plistlib and dconf, each size measured with hyperfine
in one run per operation, medians written as JSON and drawn as an SVG plot (log-log).

  growth.py SETTINGS_BINARY OUT.svg [--max N] [--runs N]

dconf is measured up to 100,000 keys: `dconf compile` grows faster than linearly (1.5 s
for 20,000 keys, about 50 s for 100,000), so a million-key database is out of reach.
"""
import json, math, os, shutil, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_domains  # noqa: E402
import plistlib  # noqa: E402


def hyperfine(commands, runs, prepare=None):
    out = tempfile.mktemp(suffix=".json")
    args = ["hyperfine", "-N", "--style", "none", "--warmup", "1", "--runs", str(runs), "--export-json", out]
    if prepare:
        args += ["--prepare", prepare]
    subprocess.run(args + commands, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        results = json.load(f)["results"]
    os.unlink(out)
    return [r["median"] * 1000 for r in results]


def main():
    settings, svg = sys.argv[1], sys.argv[2]
    maximum = int(sys.argv[sys.argv.index("--max") + 1]) if "--max" in sys.argv else 1_000_000
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 10
    sizes = [n for n in (10, 100, 1_000, 10_000, 100_000, 1_000_000) if n <= maximum]
    work = tempfile.mkdtemp()
    env = dict(os.environ, XDG_CONFIG_HOME=work + "/store", HOME=work + "/home", XDG_CACHE_HOME=work + "/cache")
    os.environ.update(env)
    os.makedirs(work + "/store")
    series = {k: [] for k in ("settings read", "settings write", "plistlib read", "plistlib write", "dconf read")}
    try:
        for n in sizes:
            data = make_domains.big(n)
            original = f"{work}/original.plist"
            with open(original, "wb") as f:
                plistlib.dump(data, f, fmt=plistlib.FMT_XML)
            path = f"{work}/store/com.growth.plist"
            shutil.copy(original, path)
            key = "key%06d" % (n // 2 + 7 if n > 10 else 7)
            # Settled, then read once: later reads go through the key index of a big domain.
            time.sleep(2.1)
            subprocess.run([settings, "read", "com.growth", key], check=True, stdout=subprocess.DEVNULL)
            big_runs = max(3, runs // (1 + n // 100_000))
            load = f"import plistlib; d = plistlib.load(open('{path}', 'rb'))"
            reads = hyperfine(
                [f"{settings} read com.growth {key}", f"python3 -c \"{load}; print(d['{key}'])\""], big_runs)
            restore = f"cp {original} {path}"
            writes = hyperfine(
                [f"{settings} write com.growth {key} -int 5",
                 f"python3 -c \"{load}; d['{key}'] = 5; plistlib.dump(d, open('{path}', 'wb'))\""],
                big_runs, prepare=restore)
            subprocess.run(restore, shell=True, check=True)
            series["settings read"].append((n, reads[0]))
            series["plistlib read"].append((n, reads[1]))
            series["settings write"].append((n, writes[0]))
            series["plistlib write"].append((n, writes[1]))
            if n <= 100_000 and shutil.which("dconf"):
                keyfiles = f"{work}/dconf-keyfiles"
                subprocess.run(
                    [sys.executable, os.path.dirname(os.path.abspath(__file__)) + "/make_dconf.py", original, keyfiles],
                    check=True)
                os.makedirs(f"{work}/dconf/dconf", exist_ok=True)
                subprocess.run(["dconf", "compile", f"{work}/dconf/dconf/user", keyfiles], check=True)
                series["dconf read"].append(
                    (n, hyperfine([f"env XDG_CONFIG_HOME={work}/dconf dconf read /bench/{key}"], runs)[0]))
            print(f"{n:>9} keys: " + ", ".join(f"{k} {v[-1][1]:.2f} ms" for k, v in series.items() if v and v[-1][0] == n),
                  flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    with open(os.path.splitext(svg)[0] + ".json", "w") as f:
        json.dump(series, f, indent=1)
    with open(svg, "w") as f:
        f.write(plot(series))


def plot(series):
    """A log-log line plot as SVG text, with no library: axes, grid, one line per series."""
    width, height, left, right, top, bottom = 720, 440, 70, 170, 30, 50
    xs = [n for s in series.values() for n, _ in s]
    ys = [ms for s in series.values() for _, ms in s]
    x0, x1 = math.log10(min(xs)), math.log10(max(xs))
    y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    def px(n): return left + (math.log10(n) - x0) / (x1 - x0) * (width - left - right)
    def py(ms): return height - bottom - (math.log10(ms) - y0) / (y1 - y0) * (height - top - bottom)
    colours = {"settings read": "#1f77b4", "settings write": "#1f77b4", "plistlib read": "#d62728",
               "plistlib write": "#d62728", "dconf read": "#2ca02c"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="12"><rect width="100%" height="100%" fill="white"/>']
    out.append(f'<text x="{left}" y="18" font-size="14">One-key read and write against domain size (median ms, log-log)</text>')
    for e in range(int(x0), int(x1) + 1):
        x = px(10 ** e)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - bottom}" stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{height - bottom + 16}" text-anchor="middle">{10 ** e:,}</text>')
    for e in range(y0, y1 + 1):
        y = py(10 ** e)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{10 ** e:g} ms</text>')
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - 12}" text-anchor="middle">keys in the domain</text>')
    for i, (name, points) in enumerate(series.items()):
        if not points:
            continue
        dash = ' stroke-dasharray="6 4"' if name.endswith("write") else ""
        path = " ".join(f"{px(n):.1f},{py(ms):.1f}" for n, ms in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colours[name]}" stroke-width="2"{dash}/>')
        for n, ms in points:
            out.append(f'<circle cx="{px(n):.1f}" cy="{py(ms):.1f}" r="3" fill="{colours[name]}"/>')
        y = top + 20 + i * 20
        out.append(f'<line x1="{width - right + 12}" y1="{y}" x2="{width - right + 40}" y2="{y}" '
                   f'stroke="{colours[name]}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{width - right + 46}" y="{y + 4}">{name}</text>')
    out.append("</svg>\n")
    return "\n".join(out)


if __name__ == "__main__":
    main()
