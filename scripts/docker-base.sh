#!/usr/bin/env bash
# Build the base image the Docker sandbox needs, without any image registry:
# debootstrap a minimal Debian bookworm with the C++ toolchain, perl and z3, then `docker import` it.
# Usage: scripts/docker-base.sh [TAG]   (default ecov-base:bookworm; no-op if the tag exists)
set -euo pipefail
tag="${1:-ecov-base:bookworm}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "image $tag already present"; exit 0
fi
command -v debootstrap >/dev/null || { echo "debootstrap is not installed (apt-get install debootstrap)" >&2; exit 1; }
root="$(mktemp -d /tmp/ecov-rootfs.XXXXXX)"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase --include=g++,clang-19,lld-19,perl,z3,ca-certificates,bubblewrap,python3,python3-venv,libpython3.11 bookworm "$root" "$mirror" >/tmp/ecov-debootstrap.log 2>&1 \
  || { tail -n 20 /tmp/ecov-debootstrap.log >&2; exit 1; }
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" -c . | docker import - "$tag" >/dev/null
echo "built $tag"
