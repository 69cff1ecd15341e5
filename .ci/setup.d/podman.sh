#!/usr/bin/env bash
# CI only: podman as the container tests need it in this sandbox (root, no systemd, cgroup v1, no
# container registry), then the local base image the Dockerfile and compose build from.
set -euo pipefail
cd "$(dirname "$0")/../.."

# - cgroupfs: there is no systemd to ask for cgroups (podman's default manager is systemd).
# - events_logger file: journald is not running.
# - runc: the runtime .ci/run installs; podman would prefer crun if a later image of the machine
#   brought it along.
# - default_ulimits: podman asks for nofile 1048576 and nproc 4194304, above the sandbox's hard limits
#   (20000 and 96364), and runc then refuses to start any container ("error setting rlimit type 7"
#   for nofile, "type 6" for nproc): ask for no more than the hard limits.
# - k8s-file logs: `podman logs` without journald.
# BUILDAH_FORMAT=docker (so the Dockerfile's HEALTHCHECK survives; OCI images have none) is set by
# the test itself for every build it runs, so a developer's machine builds the same image.
mkdir -p /etc/containers/containers.conf.d
at_most() { local hard="$1" wanted="$2"; [ "$hard" = unlimited ] && echo "$wanted" || echo $(( hard < wanted ? hard : wanted )); }
nofile="$(at_most "$(ulimit -Hn)" 16384)"
nproc="$(at_most "$(ulimit -Hu)" 32768)"
cat > /etc/containers/containers.conf.d/50-wurfwerk-ci.conf <<CONF
[containers]
default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]
log_driver = "k8s-file"

[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
runtime = "runc"

[network]
network_backend = "netavark"
CONF

podman info --format '{{.Host.OCIRuntime.Name}} {{.Host.CgroupManager}} {{.Host.EventLogger}}'

# The stand-in for python:3.11-slim and haproxy (no registry is reachable): kept between runs.
bash tests/deploy/base_image.sh
