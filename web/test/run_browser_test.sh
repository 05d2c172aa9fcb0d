#!/usr/bin/env bash
# Owns: starting the browser test (browser_test.mjs) from ctest: exit 77 (skipped, saying why)
# when its npm packages or Chromium are absent. ETMEM_WEB_UPDATE_DOCS=1 also copies the
# screenshots into docs/images/. Not: the test itself.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [[ ! -d "$here/../node_modules/puppeteer-core" ]]; then
  echo "SKIP: web/node_modules is absent: run web/install-npm.sh (scripts/setup.sh and scripts/test.sh do)"
  exit 77
fi
if [[ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]]; then
  echo "SKIP: Chromium is absent (scripts/install-deps.sh installs it)"
  exit 77
fi
extra=()
[[ "${ETMEM_WEB_UPDATE_DOCS:-}" == 1 ]] && extra=(--update-docs "$here/../../docs/images")
exec node "$here/browser_test.mjs" "$@" "${extra[@]}"
