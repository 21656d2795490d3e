"""The started process's heap, put out of the cyclic garbage collector's reach."""

from __future__ import annotations

import gc


def freeze_heap() -> None:
    """Collect once, then freeze every object alive now (modules, settings, the built app or worker).

    Why: a full collection walks every tracked object, and a started hub process holds hundreds of
    thousands (the imported modules, the app's routes and schemas). Frozen objects are never scanned
    again; what the process allocates later is collected as before (N110, and the workers' deliver
    bench before it)."""
    gc.collect()
    gc.freeze()
