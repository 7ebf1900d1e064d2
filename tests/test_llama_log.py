"""The LLM loads beside other work without hiding its output: llama-cpp-python points stdout and stderr at
/dev/null while a model loads (llama-cpp-python issue #1874); :func:`assistant.models.llama.quiet_llama_log`
sends llama.cpp's log to :mod:`logging` instead, so what another thread prints meanwhile is seen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Loads the fast GGUF in a thread while the main thread prints a numbered line to stderr every 2 ms.
CHILD = """
import sys, threading, time
from assistant.models.llama import LlamaGenerator
from assistant.models.locate import fast_llm_path
done = threading.Event()
def load():
    LlamaGenerator(fast_llm_path(), n_ctx=512)
    done.set()
thread = threading.Thread(target=load)
thread.start()
n = 0
while not done.is_set():
    print(f"tick {n}", file=sys.stderr, flush=True)
    n += 1
    time.sleep(0.002)
thread.join()
print(f"ticks {n}")
"""


def test_a_model_loading_in_a_thread_hides_nothing_printed_meanwhile() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=300,
                          check=True)
    ticks = int(done.stdout.split()[-1])
    assert ticks >= 3, "the load ended before the main thread printed: nothing was tested"
    # every line printed while the model loaded is there, and llama.cpp printed nothing of its own
    assert done.stderr.splitlines() == [f"tick {n}" for n in range(ticks)]
