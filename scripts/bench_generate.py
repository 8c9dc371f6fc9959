"""How long compiling random 3-SAT near the threshold takes, and how big the boards are.

    python scripts/bench_generate.py [--variables 10 20 50 100] [--ratio 4.26] [--seed 1]

For each size: the board (cells, covered cells, flags, mines), the best of three compile
times, the time of the exact model count (ground truth) and the models found. The target
(issue 6) is a 50-variable instance in seconds.
"""

from __future__ import annotations

import argparse
import time

from exactmines.budget import Budget
from exactmines.generate.hardness import compile_cnf, count_models, random_ksat
from exactmines.generate.positions import instance_rng


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variables", type=int, nargs="+", default=[10, 20, 50, 100])
    parser.add_argument("--ratio", type=float, default=4.26)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'vars':>5} {'clauses':>7} {'board':>10} {'cells':>9} {'covered':>8} "
          f"{'flags':>7} {'mines':>7} {'compile s':>9} {'count s':>8} {'models':>7}")
    for variables in args.variables:
        clauses = round(args.ratio * variables)
        cnf = random_ksat(variables, clauses, instance_rng("sat", args.seed, 0))
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            instance = compile_cnf(cnf)
            best = min(best, time.perf_counter() - started)
        started = time.perf_counter()
        models = count_models(cnf, budget=Budget.seconds(300))
        counted = time.perf_counter() - started
        size = instance.summary()
        print(f"{variables:>5} {clauses:>7} {size['width']:>4}x{size['height']:<5} "
              f"{size['cells']:>9} {size['covered']:>8} {size['flags']:>7} {size['mines']:>7} "
              f"{best:>9.3f} {counted:>8.3f} {'?' if models is None else models:>7}")


if __name__ == "__main__":
    main()
