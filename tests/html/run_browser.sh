#!/usr/bin/env bash
# Runs a browser test (test_report.mjs, or the script named third) in
# Debian's Chromium.  Installs playwright-core (the
# driver only: it never downloads a browser) from npm into the build folder
# the first time.  Usage: run_browser.sh TKVIEW BUILD_DIR [SCRIPT.mjs]
set -uo pipefail
tkview=$1
build=$2
script=${3:-test_report.mjs}
here=$(cd "$(dirname "$0")" && pwd)
# What these tests need is in debian-packages.txt (chromium, nodejs; npm where
# the Node.js package lacks it) and npm's registry: a missing piece fails the
# run with its reason, it is never a silent skip.
fail() { echo "Bail out! $*"; exit 1; }
[ -x /usr/bin/chromium ] || fail "no /usr/bin/chromium (apt-get install chromium: debian-packages.txt lists it)"
command -v node >/dev/null || fail "no node (apt-get install nodejs: debian-packages.txt lists it)"
command -v npm >/dev/null || fail "no npm (apt-get install npm where the nodejs package has none: see the README's test command)"
npmdir=$build/npm
# npm's cache and logs in the build folder too, never in ~/.npm.
export npm_config_cache=$npmdir/cache
# Again when package.json changed (a new version pinned) since the last run.
if [ ! -f "$npmdir/node_modules/playwright-core/package.json" ] ||
   ! cmp -s "$here/package.json" "$npmdir/package.json"; then
  mkdir -p "$npmdir"
  cp "$here/package.json" "$npmdir/package.json"
  if ! (cd "$npmdir" && npm install --no-audit --no-fund --loglevel=error >npm.log 2>&1); then
    fail "npm install playwright-core failed (no npm registry?): $(tail -3 "$npmdir/npm.log" | tr '\n' ' ')"
  fi
fi
export NODE_PATH=$npmdir/node_modules
mkdir -p "$build/artefacts"
# Chromium keeps its crash reporter's settings in $XDG_CONFIG_HOME and GTK's
# dconf cache in $XDG_CACHE_HOME, whatever profile it is given: both in a
# folder of this run (under TMPDIR, which the tests point into the build),
# never in the user's home.
home=$(mktemp -d "${TMPDIR:-/tmp}/tkview-browser-XXXXXX")
trap 'rm -rf "$home"' EXIT
export XDG_CONFIG_HOME=$home/config XDG_CACHE_HOME=$home/cache XDG_DATA_HOME=$home/data
node "$here/$script" "$tkview" "$build" "$npmdir/node_modules/playwright-core/index.mjs"
