#!/usr/bin/env bash
# Makes sure a Docker daemon answers: installs Debian's docker.io when the client or daemon is missing,
# and starts dockerd with no iptables or bridge (tests use host networking and per-run internal
# networks only). The storage driver is overlay2 where the kernel mounts overlayfs (what GPU runners
# use; vfs copies every layer in full, which made the container tests a third slower), else vfs.
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
mkdir -p /var/log

# Starts dockerd with the given storage driver; succeeds once it answers, fails if it exits or stays silent for 60 s.
start_daemon() {
  echo "docker: starting dockerd (storage driver $1)"
  nohup dockerd --storage-driver="$1" --iptables=false --bridge=none >/var/log/speedgate-dockerd.log 2>&1 &
  local pid=$!
  for _ in $(seq 1 120); do
    if docker info >/dev/null 2>&1; then
      echo "docker: daemon up"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  return 1
}

overlay_mounts() {
  local dir
  dir="$(mktemp -d)"
  mkdir -p "$dir/lower" "$dir/upper" "$dir/work" "$dir/merged"
  if mount -t overlay overlay -o "lowerdir=$dir/lower,upperdir=$dir/upper,workdir=$dir/work" "$dir/merged" 2>/dev/null; then
    umount "$dir/merged"
    rm -rf "$dir"
    return 0
  fi
  rm -rf "$dir"
  return 1
}

if overlay_mounts && start_daemon overlay2; then
  exit 0
fi
if start_daemon vfs; then
  exit 0
fi
echo "docker: daemon did not answer within 60 s; log:" >&2
tail -n 50 /var/log/speedgate-dockerd.log >&2 || true
exit 1
