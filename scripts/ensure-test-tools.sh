#!/usr/bin/env bash
# Tools the test suite uses beyond Python: Debian's Chromium (browser tests), GNU gettext
# (the guard that the Russian catalogue covers every string in the code) and redis-server
# (the shared-cache tests run against a real server), varnish (the shared HTTP cache's tests
# put varnishd in front of a live server) and the link previews' font. As root we install
# what is missing; elsewhere the tests that need them skip and name what is missing.
set -u
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v xgettext >/dev/null 2>&1 || missing+=(gettext)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v varnishd >/dev/null 2>&1 || [ -x /usr/sbin/varnishd ] || missing+=(varnish)
# The link previews' font (tests check a Russian preview's text renders): scripts/ensure-fonts.sh.
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} for the test suite…"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >/dev/null \
    || echo "Could not install ${missing[*]}; the tests that need them will skip." >&2
else
  echo "Not installed and not root: ${missing[*]}; the tests that need them will skip." >&2
fi
exit 0
