#!/usr/bin/env bash
# Installs, from Debian's packages, what the tests need beyond the Swift toolchain, when it is missing:
# python3-venv (the Autobahn runner's venv), and Chromium, its WebDriver and Selenium (the web client's browser
# tests; Debian's Selenium belongs to /usr/bin/python3). Emoji fonts make the screenshots show emoji.
set -euo pipefail

missing=()
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
/usr/bin/python3 -c 'import selenium' 2>/dev/null || missing+=(python3-selenium)
fc-list 2>/dev/null | grep -qi 'color emoji' || missing+=(fonts-noto-color-emoji)

if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi
echo "installing test dependencies: ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
    echo "run as root, or install them yourself: apt-get install -y ${missing[*]}" >&2
    exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
