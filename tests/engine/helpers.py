"""Helpers for engine tests: build positions from short notation."""

from spider_tui.engine import Game


def pos(*column_lines: str, stock: str = "-", done: str = "-", suits: int = 4, header: str = "") -> Game:
    """A partial position: column lines given in order 1.., the rest empty."""
    lines = [f"suits: {suits}", f"stock: {stock}", f"done: {done}"]
    if header:
        lines.append(header)
    for i in range(10):
        body = column_lines[i] if i < len(column_lines) else "|"
        lines.append(f"{i + 1}: {body}")
    return Game.from_text("\n".join(lines))


def filler(n: int = 1) -> str:
    """n face-up cards that nothing else in a test interacts with (for non-empty columns)."""
    return "| " + " ".join(["Kc"] * n)
