#!/usr/bin/env bash
# Builds the local stand-in for the registry images the container files name (python:3.11-slim for the
# service, haproxy for the compose balancer): the CI machines reach no container registry. Debian
# bookworm from Debian's own packages (mmdebstrap), Python 3.11 with `python` and `pip` on PATH and
# pip allowed to install system-wide as in the python image, HAProxy for the balancer, and the host's
# CA certificates so pip reaches PyPI through the same egress as the host.
# Idempotent: an existing image is kept (delete it with `podman rmi` to rebuild).
set -euo pipefail
IMAGE="${1:-localhost/wurfwerk-ci-base:bookworm}"
MIRROR="${WURFWERK_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if podman image exists "$IMAGE"; then
  echo "base image $IMAGE exists: kept"
  exit 0
fi
workdir="$(mktemp -d)"
trap 'rm -rf "$workdir"' EXIT
mmdebstrap --variant=apt --quiet \
  --include=python3,python3-pip,ca-certificates,haproxy \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --customize-hook='copy-in /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/' \
  --customize-hook='rm -f "$1"/usr/lib/python3.*/EXTERNALLY-MANAGED' \
  --customize-hook='ln -sf /usr/bin/python3 "$1"/usr/local/bin/python' \
  --customize-hook='ln -sf /usr/bin/pip3 "$1"/usr/local/bin/pip' \
  bookworm "$workdir/rootfs.tar" "$MIRROR"
podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["python3"]' \
  "$workdir/rootfs.tar" "$IMAGE"
echo "base image $IMAGE built"
