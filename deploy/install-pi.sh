#!/usr/bin/env bash
# Install the smart board controller on Raspberry Pi OS (run as root from the checkout).
# Idempotent: running it again updates the code and keeps the configuration and journal.
#
# Who owns what:
#   /opt/trictrac (the code and its .venv)  root:root, nothing group- or world-writable: the
#                                           service user runs the code and cannot change it
#   /etc/trictrac/board.toml                root:trictrac 0640 in root:trictrac 0750
#   /var/lib/trictrac (journal, records)    trictrac 0700, made by systemd (StateDirectory=)
set -euo pipefail
umask 022
here="$(cd "$(dirname "$0")/.." && pwd)"
if [ "$(id -u)" -ne 0 ]; then
  echo "install-pi.sh: run as root: sudo $0" >&2
  exit 1
fi

apt-get update
apt-get install -y python3-venv python3-pip rsync

# the service user: no login, no home of its own; the serial port and GPIO through its groups
getent group gpio >/dev/null || groupadd --system gpio
if ! id trictrac >/dev/null 2>&1; then
  useradd --system --user-group --home-dir /var/lib/trictrac --no-create-home \
    --shell /usr/sbin/nologin --groups dialout,gpio trictrac
fi
usermod --append --groups dialout,gpio trictrac

# stop a running board before its code is replaced (it resumes from the journal)
systemctl stop trictrac.service 2>/dev/null || true

# the code: copied owned by root (never the checkout's owner, group or group-write bits)
install -d -o root -g root -m 0755 /opt/trictrac
rsync -rlpt --delete --chown=root:root --chmod=Du=rwx,Dgo=rx,Fu=rwX,Fgo=rX \
  --exclude .git --exclude .venv --exclude node_modules --exclude __pycache__ \
  --exclude .pytest_cache --exclude .hypothesis --exclude build --exclude '*.egg-info' \
  "$here"/ /opt/trictrac/
python3 -m venv /opt/trictrac/.venv
/opt/trictrac/.venv/bin/pip install --no-cache-dir --upgrade /opt/trictrac
# whatever an earlier install (or pip) left: root's alone, readable by all, writable by none else
chown -R root:root /opt/trictrac
chmod -R u+rwX,go+rX,go-w /opt/trictrac

# the configuration: root's, readable by the service's group only
install -d -o root -g trictrac -m 0750 /etc/trictrac
if [ ! -e /etc/trictrac/board.toml ]; then
  install -o root -g trictrac -m 0640 /opt/trictrac/deploy/board.pi.toml /etc/trictrac/board.toml
fi
chown root:trictrac /etc/trictrac/board.toml
chmod 0640 /etc/trictrac/board.toml

# the state: systemd makes /var/lib/trictrac (StateDirectory=trictrac, 0700); an earlier
# install's folder is brought to the same owner and mode
if [ -d /var/lib/trictrac ]; then
  chown -R trictrac:trictrac /var/lib/trictrac
  chmod 0700 /var/lib/trictrac
fi

runuser -u trictrac -- /opt/trictrac/.venv/bin/trictrac doctor --config /etc/trictrac/board.toml --no-live || true

install -o root -g root -m 0644 /opt/trictrac/deploy/trictrac.service /etc/systemd/system/trictrac.service
systemctl daemon-reload
systemctl enable trictrac.service
systemctl restart trictrac.service
systemctl --no-pager status trictrac.service || true
