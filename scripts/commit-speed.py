#!/usr/bin/env python3
"""The pre-commit speed figures of the README (issue: "fast enough for a commit").

For every program of tests-c/programs (with its `// args:` line), runs
  - `ase check FILE` with the default settings (the time a commit waits for
    that file), and
  - `ase lower FILE` (start-up, preprocessing, parsing and lowering: the
    hook's overhead before any engine runs),
RUNS times each, and prints the medians (per file the median of its runs,
then the median and the 90th percentile over the files) as a markdown table.

Usage: scripts/commit-speed.py [--ase target/release/ase] [--runs 3] [--timeout 60]
"""
import argparse
import pathlib
import statistics
import subprocess
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def program_args(path):
    for line in path.read_text().splitlines():
        if not line.startswith("//"):
            break
        if line.startswith("// args:"):
            return line[len("// args:"):].split()
    return []


def timed(cmd, timeout):
    start = time.perf_counter()
    try:
        out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        first = out.stdout.splitlines()[0] if out.stdout else ""
    except subprocess.TimeoutExpired:
        first = "timeout"
    return time.perf_counter() - start, first.split(":")[0].split(" ")[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ase", default=str(ROOT / "target/release/ase"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    files = sorted((ROOT / "tests-c/programs").glob("*.c"))
    check, lower, verdicts = [], [], {}
    for f in files:
        rel = str(f.relative_to(ROOT))
        extra = program_args(f)
        c = [timed([a.ase, "check", rel, *extra], a.timeout) for _ in range(a.runs)]
        l = [timed([a.ase, "lower", rel, *extra], a.timeout)[0] for _ in range(a.runs)]
        check.append(statistics.median(t for t, _ in c))
        lower.append(statistics.median(l))
        verdict = c[0][1]
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    def p90(xs):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(0.9 * len(xs)))]
    print(f"{len(files)} programs, {a.runs} runs each, verdicts: "
          + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))
    print()
    print("| per file | median | 90th percentile | under 0.5 s |")
    print("| --- | --- | --- | --- |")
    print(f"| `ase check` (default settings) | {statistics.median(check):.3f} s | {p90(check):.3f} s "
          f"| {sum(t < 0.5 for t in check)} of {len(check)} |")
    print(f"| `ase lower` (hook overhead: start-up, preprocessing, lowering) | "
          f"{statistics.median(lower):.3f} s | {p90(lower):.3f} s | {sum(t < 0.5 for t in lower)} of {len(lower)} |")


if __name__ == "__main__":
    main()
