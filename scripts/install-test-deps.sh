#!/usr/bin/env bash
# Installs, from Debian's packages, what the tests need beyond the Swift toolchain, when it is missing:
# python3-venv (the Autobahn runner's venv); Chromium, its WebDriver and Selenium (the web client's browser tests;
# Debian's Selenium belongs to /usr/bin/python3); emoji fonts, so the screenshots show emoji; and PostgreSQL's
# server programs (Debian's postgresql), with which the tests start a throwaway server of their own
# (ChatTestSupport's TestPostgres), never the package's cluster; HAProxy, which one test runs in front of two
# nodes with deploy/haproxy.cfg; and binutils and curl for the release archive's test. The browser tests'
# accessibility check uses PyPI's axe-selenium-python (it bundles axe-core), installed for /usr/bin/python3 with pip
# (from Debian's python3-pip; --no-deps keeps Debian's Selenium).
set -euo pipefail

missing=()
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
/usr/bin/python3 -c 'import selenium' 2>/dev/null || missing+=(python3-selenium)
fc-list 2>/dev/null | grep -qi 'color emoji' || missing+=(fonts-noto-color-emoji)
# The search screenshot (desktop-light-search.png) shows Chinese: without a CJK font it is boxes.
fc-list :lang=zh 2>/dev/null | grep -q . || missing+=(fonts-noto-cjk)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || command -v initdb >/dev/null || missing+=(postgresql)
[[ -x /usr/sbin/haproxy ]] || command -v haproxy >/dev/null || missing+=(haproxy)
# The release archive's test: strip (binutils), ldd (libc-bin), curl.
command -v strip >/dev/null || missing+=(binutils)
command -v curl >/dev/null || missing+=(curl)
need_axe=false
if ! /usr/bin/python3 -c 'import axe_selenium_python' 2>/dev/null; then
    need_axe=true
    /usr/bin/python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
fi

install_axe() {
    if [[ $need_axe == true ]]; then
        echo "installing axe-selenium-python for /usr/bin/python3"
        /usr/bin/python3 -m pip install --quiet --break-system-packages --no-deps axe-selenium-python==2.1.6
    fi
}

if [[ ${#missing[@]} -eq 0 ]]; then
    if [[ $need_axe == true && $(id -u) -ne 0 ]]; then
        echo "run as root, or install it yourself: /usr/bin/python3 -m pip install --break-system-packages --no-deps axe-selenium-python" >&2
        exit 1
    fi
    install_axe
    exit 0
fi
echo "installing test dependencies: ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
    echo "run as root, or install them yourself: apt-get install -y ${missing[*]}" >&2
    exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
install_axe
