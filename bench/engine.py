"""Engine benchmark (SPEC §11): median time of legal_moves() + hint() on mid-game positions.

    python bench/engine.py [--positions 200]

Positions come from real deals (1..N, 1, 2 and 4 suits) played 20–60 actions into the round
by a seeded mix of hint moves and random legal moves.  Prints the median and the 90th
percentile per call pair, and random-playout games per second.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from spider_tui.engine import Game


def mid_game_positions(count: int, seed: int = 7) -> list[Game]:
    rng = random.Random(seed)
    out = []
    number = 0
    while len(out) < count:
        number += 1
        g = Game.new(number, suits=(1, 2, 4)[number % 3])
        for _ in range(rng.randint(20, 60)):
            h = g.hint() if rng.random() < 0.7 else None
            moves = g.legal_moves()
            if not moves:
                break
            g.play(h if h is not None else rng.choice(moves))
        if not g.won:
            out.append(g)
    return out


def time_engine(positions: list[Game], repeat: int = 50) -> list[float]:
    samples = []
    for g in positions:
        t0 = time.perf_counter_ns()
        for _ in range(repeat):
            g.legal_moves()
            g.hint()
        samples.append((time.perf_counter_ns() - t0) / repeat / 1e6)
    return samples


def playouts_per_second(seconds: float = 2.0, seed: int = 3) -> float:
    rng = random.Random(seed)
    games = 0
    t_end = time.perf_counter() + seconds
    number = 1000
    while time.perf_counter() < t_end:
        number += 1
        g = Game.new(number, suits=2)
        for _ in range(300):
            moves = g.legal_moves()
            if not moves:
                break
            g.play(rng.choice(moves))
        games += 1
    return games / seconds


def run(n_positions: int = 200) -> dict:
    positions = mid_game_positions(n_positions)
    samples = time_engine(positions)
    samples.sort()
    return {
        "engine_median_ms": statistics.median(samples),
        "engine_p90_ms": samples[int(len(samples) * 0.9)],
        "playouts_per_s": playouts_per_second(),
        "positions": len(positions),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200)
    r = run(ap.parse_args().positions)
    print("| measure | value | budget |")
    print("|---|---|---|")
    print(f"| legal_moves() + hint(), median of {r['positions']} mid-game positions | {r['engine_median_ms']:.3f} ms | ≤ 0.2 ms |")
    print(f"| legal_moves() + hint(), 90th percentile | {r['engine_p90_ms']:.3f} ms | |")
    print(f"| random playouts (300 actions max, 2 suits) | {r['playouts_per_s']:.0f} games/s | |")


if __name__ == "__main__":
    main()
