"""Measures the Python package against the CLI on the same input, and npuzzle.ray with one and
two workers. Run from the repository root with the package installed (crates/npuzzle-py/run-tests
makes such an environment under target/pyenv):

    target/pyenv/bin/python crates/npuzzle-py/bench.py --pdb-dir DIR [--pdb-dir-5x5 DIR]

DIR must hold the 4x4 7-8 databases (`npuzzle pdb build --partition 7-8`); with --pdb-dir-5x5
(the 6-6-6-6 databases) a 24-puzzle instance is split over Ray too. Every figure is one run on
this machine; the sections print as they finish.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import npuzzle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "crates", "npuzzle-cli", "data")
CLI = os.path.join(ROOT, "target", "release", "npuzzle")


def lines(name):
    with open(os.path.join(DATA, name)) as f:
        return [l.strip() for l in f if l.strip()]


def timed(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def cli(args, stdin_path):
    with open(stdin_path) as f:
        t = time.perf_counter()
        subprocess.run([CLI, *args], stdin=f, stdout=subprocess.DEVNULL, check=True)
        return time.perf_counter() - t


def in_process(pdb_dir):
    print("## solve_many in-process against the CLI (same boards)")
    boards = [" ".join("x" if t == 0 else str(t) for t in b)
              for b in npuzzle.scramble("3x3", 1_000_000, seed=1)]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(boards) + "\n")
        path = f.name
    npuzzle.solve("1 2 3 4 5 6 7 x 8")  # the table, built once
    out, t = timed(lambda: npuzzle.solve_many(boards))
    assert all(s is not None for s in out)
    tc = cli(["solve"], path)
    lengths, tl = timed(lambda: npuzzle.lengths(boards))
    assert lengths.tolist() == [s.length for s in out]
    print(f"3x3, 1,000,000 boards: solve_many {t:.2f} s ({len(boards) / t:,.0f} boards/s); "
          f"lengths {tl:.2f} s ({len(boards) / tl:,.0f} boards/s); "
          f"`npuzzle solve` {tc:.2f} s ({len(boards) / tc:,.0f} boards/s)")
    os.unlink(path)

    korf = lines("korf100.txt")
    opt = [int(x) for x in lines("korf100_opt.txt")]
    goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
    solver = npuzzle.Solver("4x4", goal=goal, pdb_dir=pdb_dir, partition="7-8", build="never")
    out, t = timed(lambda: solver.solve_many(korf))
    assert [s.length for s in out] == opt
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(korf) + "\n")
        path = f.name
    tc = cli(["solve", "--blank-first", "--pdb", "7-8", "--pdb-dir", pdb_dir], path)
    print(f"Korf's 100 (7-8 databases loaded): solve_many {t:.2f} s ({100 / t:,.0f} boards/s), "
          f"all optimal; `npuzzle solve` {tc:.2f} s including the load")
    os.unlink(path)


def ray_sections(pdb_dir, pdb_dir_5x5):
    import ray
    import npuzzle.ray as nray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    boards = npuzzle.scramble("4x4", 2000, seed=5)
    local, t_local = timed(lambda: npuzzle.solve_many(boards, pdb_dir=pdb_dir, partition="7-8",
                                                      build="never"))
    print(f"## npuzzle.ray (2,000 random 4x4 boards, 7-8 databases; in-process on both cores: "
          f"{t_local:.2f} s, {len(boards) / t_local:,.0f} boards/s)")
    tiny = npuzzle.scramble("3x3", 400, seed=2)
    korf = lines("korf100.txt")
    goal = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
    hard = korf[87]  # Korf #88, one of the hardest
    results = {}
    for workers in (1, 2):
        t0 = time.perf_counter()
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        start = time.perf_counter() - t0
        # Warm every worker (solver and databases loaded) before timing.
        nray.solve_many(boards[:4 * workers], pdb_dir=pdb_dir, partition="7-8", build="never",
                        batch_size=1)
        out, t = timed(lambda: nray.solve_many(boards, pdb_dir=pdb_dir, partition="7-8",
                                               build="never"))
        assert [s.length for s in out] == [s.length for s in local]
        _, t_tiny = timed(lambda: nray.solve_many(tiny, batch_size=1))
        report = nray.SplitReport()
        s, t_one = timed(lambda: nray.solve_one(hard, goal=goal, pdb_dir=pdb_dir,
                                                partition="7-8", build="never", report=report))
        line = (f"{workers} worker(s): ray.init {start:.1f} s; solve_many {t:.2f} s "
                f"({len(boards) / t:,.0f} boards/s); per-task overhead "
                f"{t_tiny / len(tiny) * 1e3:.2f} ms (400 one-board 3x3 tasks in {t_tiny:.2f} s); "
                f"solve_one Korf #88 ({s.length} moves) {t_one:.2f} s, "
                f"{s.stats.expanded:,} states, {report.tasks} tasks x {len(report.iterations)} "
                f"iterations")
        if pdb_dir_5x5:
            goal25 = " ".join(str(t) for t in range(25))
            k24 = lines("korf24_50.txt")[39]  # instance 40
            report24 = nray.SplitReport()
            s24, t24 = timed(lambda: nray.solve_one(k24, goal=goal25, pdb_dir=pdb_dir_5x5,
                                                    build="never", report=report24))
            line += (f"; 24-puzzle #40 ({s24.length} moves) {t24:.2f} s, "
                     f"{s24.stats.expanded:,} states")
        print(line, flush=True)
        results[workers] = (t, t_one)
        ray.shutdown()
    print(f"speed-up with 2 workers: solve_many {results[1][0] / results[2][0]:.2f}x, "
          f"solve_one {results[1][1] / results[2][1]:.2f}x")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pdb-dir", required=True)
    p.add_argument("--pdb-dir-5x5")
    p.add_argument("--skip-ray", action="store_true")
    a = p.parse_args()
    if not os.path.exists(CLI):
        sys.exit(f"build the CLI first: cargo build --release ({CLI})")
    in_process(a.pdb_dir)
    if not a.skip_ray:
        ray_sections(a.pdb_dir, a.pdb_dir_5x5)


if __name__ == "__main__":
    main()
