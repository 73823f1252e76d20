"""A one-line progress bar on stderr for long computations.

``[#####-----]  120/300 runs  40%  elapsed 0:12  ETA 0:18``

``enabled=None`` draws only when the stream is a terminal, ``True`` always,
``False`` never.  ``title`` goes before the bar and says what is being
computed (``exact D_e [####------] ...``).  Functions that take a
``progress`` flag treat ``None`` as the process-wide default
(:func:`wanted`), which the command line sets (:func:`show_by_default`: on
unless ``-q``), so that every long step of a command shows a bar without
the flag being threaded through every call.  ``done`` is where a resumed
job starts: the ETA uses the rate of this session's work only.  Drawing is
rate-limited to one line every ``min_interval`` seconds (the last state is
always drawn).
"""
from __future__ import annotations

import sys
import time
from typing import Optional


def hms(sec: float) -> str:
    """Seconds as ``h:mm:ss`` (or ``m:ss`` under an hour); negative values count as 0.

    Parameters
    ----------
    sec : float
        Seconds (rounded to whole seconds).
    """
    sec = int(round(max(0.0, sec)))
    h, rem = divmod(sec, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


_show_by_default = False  # the library is silent unless asked; the CLI turns it on


def show_by_default(show: bool) -> bool:
    """Set the process-wide default of `wanted`; returns the previous one."""
    global _show_by_default
    previous, _show_by_default = _show_by_default, bool(show)
    return previous


def wanted(flag: Optional[bool]) -> bool:
    """``flag``, or the process-wide default when it is ``None``."""
    return _show_by_default if flag is None else bool(flag)


def _is_tty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class Progress:
    """A one-line progress bar with elapsed time and ETA, redrawn in place.

    Parameters
    ----------
    total : float
        Work at 100 %; 0 disables the bar.
    label : str
        What is counted (``"pairs"``, ``"runs"``).
    enabled : bool, optional
        None: draw only when ``stream`` is a terminal; True: always; False: never.
    stream : file-like, optional
        Where to draw; None: standard error.
    done : float
        Work already done (a resumed job); the ETA uses this session's rate only.
    width : int
        Characters of the bar.
    min_interval : float
        Seconds between two redraws (the last state is always drawn).
    """
    def __init__(self, total: float, label: str = "pairs", enabled: Optional[bool] = None,
                 stream=None, done: float = 0, width: int = 30, min_interval: float = 0.2,
                 title: str = ""):
        self.stream = stream if stream is not None else sys.stderr
        on = _is_tty(self.stream) if enabled is None else enabled
        self.enabled = bool(on) and total > 0
        self.total, self.done, self.start_done = total, done, done
        self.label, self.width, self.min_interval = label, width, min_interval
        self.title = title
        self.t0 = time.monotonic()
        self._last = 0.0
        self.draw(force=True)

    def text(self) -> str:
        """The bar as text: ``[###---] done/total label pct%  elapsed ...  ETA ...``."""
        frac = min(1.0, self.done / self.total) if self.total else 1.0
        fill = int(round(frac * self.width))
        el = time.monotonic() - self.t0
        new = self.done - self.start_done
        if self.done >= self.total:
            eta = "0:00"
        elif new > 0:
            eta = hms(el / new * (self.total - self.done))
        else:
            eta = "?"
        total = f"{int(self.total)}"
        head = f"{self.title} " if self.title else ""
        return (f"{head}[{'#' * fill}{'-' * (self.width - fill)}] {int(self.done):>{len(total)}}"
                f"/{total} {self.label} {100 * frac:3.0f}%  elapsed {hms(el)}  ETA {eta}")

    def draw(self, force: bool = False) -> None:
        """Redraw the line (at most every ``min_interval`` seconds unless ``force``)."""
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last < self.min_interval:
            return
        self._last = now
        self.stream.write("\r" + self.text())
        self.stream.flush()

    def update(self, amount: float = 1) -> None:
        """Count ``amount`` more work done and redraw."""
        self.done += amount
        self.draw(force=self.done >= self.total)

    def close(self) -> None:
        """Draw the final state and end the line."""
        if self.enabled:
            self.draw(force=True)
            self.stream.write("\n")
            self.stream.flush()
