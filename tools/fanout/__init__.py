"""The extraction's fan-out: how its documents are scheduled, read and stored.

The graph decides which documents make a wave and what a document's outcome means to its user
(``nodes/plan.py``, ``nodes/next_wave.py``, ``nodes/extract_document.py``); this package does
the rest, one document task at a time:

- ``lanes.py``: a profile's engine lanes (its concurrency), shared by its runs, and the hand-over
  of a lane no task wants to the reading ahead of the next wave's documents;
- ``document_io.py`` (with ``batches.py``): the documents' loads and stores, batched across the
  tasks of one event-loop turn, the documents prefetched for the waves to come and read ahead,
  and the table's head start while a wave is read;
- ``document.py``: ``DocumentRead``, one document through all of it: loaded, its engine call
  made on a lane (metered, cut off by the run's cancel) or taken from the lane that made it
  ahead, its records verified against its text and stored;
- ``waves.py``: when a run's waves begin, and what is loaded ahead of each.
"""

from tools.fanout.document import (
    DocumentRead,
    LongDocument,
    RunCancelled,
    StillReading,
    StoreFault,
)
from tools.fanout.waves import first_waves, wave_begins

__all__ = [
    "DocumentRead", "LongDocument", "RunCancelled", "StillReading", "StoreFault", "first_waves", "wave_begins",
]
