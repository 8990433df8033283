#!/usr/bin/env bash
# The link previews (core/previews.py) draw their text in DejaVu Sans, which covers Latin
# and Cyrillic: Debian's fonts-dejavu-core. As root we install it when it is missing;
# elsewhere the previews use whatever fonts the system has, and we say so.
set -u
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing fonts-dejavu-core for the link previews…"
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends fonts-dejavu-core; } >/dev/null \
    || echo "Could not install fonts-dejavu-core; link previews use the system's fonts." >&2
else
  echo "fonts-dejavu-core is not installed and we are not root: link previews use the system's fonts." >&2
fi
exit 0
