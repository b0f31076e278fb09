"""The ladder as a picture (SVG or PNG by the file's suffix), drawn with matplotlib (``xeri[plot]``)."""

from __future__ import annotations

from pathlib import Path

from .ladder import LadderResult
from .play import ArenaError


def plot_ladder(result: LadderResult, path: str | Path) -> Path:
    """Each bot's rating with its 95% interval, strongest at the top."""
    path = Path(path)
    if path.suffix.lower() not in (".svg", ".png"):
        raise ArenaError(f"--plot writes .svg or .png files, not {path.name!r}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ArenaError("--plot needs matplotlib: pip install 'xeri[plot]'") from None
    ranked = list(reversed(result.ranked()))
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(ranked) + 1.5))
    ys = range(len(ranked))
    ax.errorbar(
        [r.elo for r in ranked], list(ys),
        xerr=[[r.elo - r.lo for r in ranked], [r.hi - r.elo for r in ranked]],
        fmt="o", capsize=4,
    )
    ax.set_yticks(list(ys), [r.bot for r in ranked])
    ax.set_xlabel("Bradley–Terry rating (Elo scale, mean 0), 95% interval")
    ax.set_title(f"Xeri bot ladder: {result.deals} duplicate deals per pair")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as exc:
        raise ArenaError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
    return path
