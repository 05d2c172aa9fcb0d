#!/usr/bin/env bash
# Owns: installing the web page test's npm packages (puppeteer-core) into web/node_modules from
# the committed web/package-lock.json, exactly (npm ci). Safe to run again: nothing is fetched
# when node_modules already holds what the lock file names, so the tests then run offline.
# scripts/setup.sh and scripts/test.sh run it. Not: the Debian packages (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v npm >/dev/null; then
  echo "web/install-npm.sh: npm is absent (scripts/install-deps.sh installs it); the web page's browser test will be skipped" >&2
  exit 0
fi
# npm writes node_modules/.package-lock.json when it installs: the same dependencies as the
# lock file means there is nothing to do.
if [[ -f node_modules/.package-lock.json ]] && node -e '
    const want = require("./package-lock.json").packages;
    const have = require("./node_modules/.package-lock.json").packages;
    for (const k of Object.keys(want))
      if (k && (!have[k] || have[k].version !== want[k].version)) process.exit(1);' 2>/dev/null; then
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
