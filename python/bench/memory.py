"""Peak memory a position of an OpenSpiel game solved through retrograde.

    python python/bench/memory.py "connect_four(rows=4,columns=4)"

Prints the positions, the time, the process's peak resident memory
(`ru_maxrss`) and that peak over the positions, and the same peak less what
the interpreter held after importing numpy, pyspiel and retrograde (measured
first, in the same process).
"""

import gc
import resource
import sys
import time

import pyspiel

import retrograde.openspiel


def peak() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "connect_four(rows=4,columns=4)"
    game = pyspiel.load_game(name)
    base = peak()
    started = time.perf_counter()
    s = retrograde.openspiel.solve(game)
    seconds = time.perf_counter() - started
    gc.collect()
    top = peak()
    n = len(s)
    print(f"{name}: {n:,} positions, {seconds:.1f} s, start {s.value(s.start)}; "
          f"peak {top / 1e6:,.0f} MB, {top / n:,.0f} bytes a position "
          f"({(top - base) / n:,.0f} beyond the {base / 1e6:,.0f} MB after imports)")


if __name__ == "__main__":
    main()
