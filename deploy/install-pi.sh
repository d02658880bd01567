#!/usr/bin/env bash
# Install the smart board controller on Raspberry Pi OS (run as root from the checkout).
# Idempotent: running it again updates the code and keeps the configuration and journal.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
apt-get update
apt-get install -y python3-venv python3-pip
id trictrac >/dev/null 2>&1 || useradd --system --home /var/lib/trictrac --groups dialout,gpio trictrac
install -d -o trictrac -g trictrac /var/lib/trictrac /var/lib/trictrac/records
install -d /etc/trictrac /opt/trictrac
rsync -a --delete --exclude .venv --exclude .git "$here"/ /opt/trictrac/
python3 -m venv /opt/trictrac/.venv
/opt/trictrac/.venv/bin/pip install --upgrade /opt/trictrac
if [ ! -e /etc/trictrac/board.toml ]; then
  install -m 644 /opt/trictrac/deploy/board.pi.toml /etc/trictrac/board.toml
fi
/opt/trictrac/.venv/bin/trictrac doctor --config /etc/trictrac/board.toml --no-live || true
install -m 644 /opt/trictrac/deploy/trictrac.service /etc/systemd/system/trictrac.service
systemctl daemon-reload
systemctl enable --now trictrac.service
systemctl --no-pager status trictrac.service || true
