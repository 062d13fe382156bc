#!/usr/bin/env bash
# Makes sure a Docker daemon answers: installs Debian's docker.io when the client or daemon is missing,
# and starts dockerd with the vfs driver (no overlayfs in this sandbox) and no iptables or bridge
# (tests use host networking and per-run internal networks only).
set -euo pipefail
if docker info >/dev/null 2>&1; then
  echo "docker: daemon already answers"
  exit 0
fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "docker: installing docker.io"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
fi
echo "docker: starting dockerd"
mkdir -p /var/log
nohup dockerd --storage-driver=vfs --iptables=false --bridge=none >/var/log/speedgate-dockerd.log 2>&1 &
for _ in $(seq 1 120); do
  if docker info >/dev/null 2>&1; then
    echo "docker: daemon up"
    exit 0
  fi
  sleep 0.5
done
echo "docker: daemon did not answer within 60 s; log:" >&2
tail -n 50 /var/log/speedgate-dockerd.log >&2 || true
exit 1
