"""Call parser on adversarial model output (issue 14 target: 1 MB parses in <= 100 ms).

    python benchmarks/codec_benchmark.py [--size 1000000] [--repeat 3]
                                         [--out benchmarks/results/codec.json]

Each pattern of ``adversarial.PATTERNS`` is repeated to ``--size`` characters and parsed twice:
with the length limit lifted (``max_chars=None``: the parser's own cost, linear in the text) and
with the default limit (``MAX_OUTPUT_CHARS``: what an agent meets, a ``too_long`` error). Times
are the best of ``--repeat`` runs (``tests/timing.py``'s way: garbage collector off).
"""

from __future__ import annotations

import argparse

from adversarial import PATTERNS, adversarial_text
from common import finish, machine_info, print_table
from targets import Target

from pipeline.tools import ToolError, parse_calls
from pipeline.tools.parse import MAX_OUTPUT_CHARS
from tests.timing import best_ms

TARGET_MS = 100.0


def parse_ms(text: str, max_chars: int | None, repeat: int) -> tuple[float, str]:
    """Best time of ``repeat`` parses, and the kind (or tool) of the last result."""
    ms, results = best_ms(lambda: parse_calls(text, max_chars=max_chars), repeat)
    last = results[-1]
    return ms, (last.kind if isinstance(last, ToolError) else last.name)


def measure(pattern: str, size: int, repeat: int) -> dict:
    text = adversarial_text(pattern, size)
    uncapped, outcome = parse_ms(text, None, repeat)
    capped, capped_outcome = parse_ms(text, MAX_OUTPUT_CHARS, repeat)
    return {"pattern": pattern, "chars": len(text), "uncapped_ms": round(uncapped, 2),
            "outcome": outcome, "capped_ms": round(capped, 3), "capped_outcome": capped_outcome}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", default="benchmarks/results/codec.json")
    args = parser.parse_args(argv)
    rows = [measure(pattern, args.size, args.repeat) for pattern in PATTERNS]
    columns = ["pattern", "chars", "uncapped_ms", "outcome", "capped_ms", "capped_outcome"]
    print_table(f"parse_calls on {args.size:,} characters of adversarial text (ms, best of "
                f"{args.repeat})", columns, [[repr(r["pattern"])] + [r[c] for c in columns[1:]]
                                             for r in rows])
    worst = max(rows, key=lambda r: r["uncapped_ms"])
    met = worst["uncapped_ms"] <= TARGET_MS
    target = Target(f"parse_calls on {args.size:,} adversarial characters, no length limit",
                    f"<= {TARGET_MS:g} ms for every pattern",
                    f"worst {worst['uncapped_ms']:.1f} ms ({worst['pattern']!r})", met,
                    "" if met else f"{worst['pattern']!r} took {worst['uncapped_ms']:.1f} ms")
    print_table("targets", ["target", "goal", "measured", "met"],
                [[target.name, target.target, target.measured, target.met]])
    finish({"machine": machine_info(), "size": args.size, "repeat": args.repeat, "rows": rows,
            "targets": [target.to_dict()]}, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
