"""Model backends behind small protocols. Importing this package switches every hub client offline."""

import os

# Privacy promise: no model hub calls, ever. Models load from paths only.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"
os.environ["DO_NOT_TRACK"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "true")


def quiet_transformers() -> None:
    """Silence transformers' progress bars and advisory logs (our own progress events report loading)."""
    from transformers.utils import logging

    logging.disable_progress_bar()
    logging.set_verbosity_error()
