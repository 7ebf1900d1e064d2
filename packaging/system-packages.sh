#!/usr/bin/env bash
# The system programs the tests use (what CI installs), installed where this user may: with apt-get as root,
# or through `sudo -n` when sudo needs no password. Elsewhere it says plainly which are missing, the one
# command that installs them and which tests skip without them; the install goes on either way.
#
# Usage: bash packaging/system-packages.sh     (packaging/install.sh --test runs it)
# Environment: REQUIRE_TEST_PACKAGES=1 makes a program still missing at the end an error (CI sets it).
set -euo pipefail

# program | Debian/Ubuntu package | the tests that skip without it
NEEDED=(
  "dovecot|dovecot-imapd|the mail tests (sync, drafts, watching for new mail, OAuth sign-in) against a Dovecot IMAP server on this computer"
  "openssl|openssl|the same mail tests (openssl makes the test server's certificate)"
  "tesseract|tesseract-ocr|the test that reads a scanned PDF page with OCR"
  "desktop-file-validate|desktop-file-utils|the check of the desktop entry (menu, file types)"
  "appstreamcli|appstream|the check of the AppStream metadata (software centres)"
)

missing() {  # the lines of NEEDED whose program is not on the PATH
  local line
  for line in "${NEEDED[@]}"; do command -v "${line%%|*}" >/dev/null || printf '%s\n' "$line"; done
}

packages_of() { local line; while IFS= read -r line; do line=${line#*|}; printf '%s ' "${line%%|*}"; done; }

explain() {  # explain WHY [HOW]: why they are missing, how to install them; stdin: the missing lines
  local lines line pkgs
  lines=$(</dev/stdin)
  pkgs=$(packages_of <<<"$lines")
  pkgs=${pkgs% }
  echo "$1. Missing: $pkgs."
  echo "  ${2:-Install them with: sudo apt-get install $pkgs}"
  echo "  Until then these tests skip (pytest names them at the end of its run):"
  while IFS= read -r line; do echo "  - without ${line%%|*}: ${line##*|}"; done <<<"$lines"
}

apt_install() {  # apt_install root|sudo PACKAGE...: update the lists, then install, asking nothing (errors shown)
  if [ "$1" = sudo ]; then
    shift
    sudo -n apt-get update -qq && sudo -n DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    shift
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  fi
}

lacking=$(missing)
if [ -z "$lacking" ]; then
  echo "The system programs the tests use are all installed (dovecot, openssl, tesseract, desktop-file-validate," \
    "appstreamcli)."
  exit 0
fi
read -ra pkgs <<<"$(packages_of <<<"$lacking")"
if ! command -v apt-get >/dev/null; then
  explain "No apt-get on this system: the programs the tests use were not installed" \
    "Install them with your system's package manager (these are their Debian and Ubuntu names)." <<<"$lacking"
elif [ "$(id -u)" != 0 ] && ! { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }; then
  explain "Not installed: that needs root, and sudo here asks for a password (this install never asks)" <<<"$lacking"
else
  if [ "$(id -u)" = 0 ]; then via=root how="apt-get as root"; else via=sudo how="sudo (it needs no password here)"; fi
  echo "Installing the system programs the tests use (about half a minute), with $how: ${pkgs[*]}"
  apt_install "$via" "${pkgs[@]}" || echo "apt-get could not install them (its message is above)."
  lacking=$(missing)
  if [ -n "$lacking" ]; then explain "Still not installed" <<<"$lacking"; else echo "Installed: ${pkgs[*]}."; fi
fi
if [ "${REQUIRE_TEST_PACKAGES:-0}" = 1 ] && [ -n "$(missing)" ]; then
  echo "error: REQUIRE_TEST_PACKAGES=1, and still missing: $(missing | packages_of)" >&2
  exit 1
fi
exit 0
