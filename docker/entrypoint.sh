#!/bin/sh
# The ECov image's entrypoint. Bubblewrap works in a container only when Docker lets it create
# namespaces and mount /proc (docker run --security-opt seccomp=unconfined --security-opt
# systempaths=unconfined). Where it cannot, the image accepts the rlimit sandbox for `--sandbox auto`
# (ECOV_SANDBOX=rlimit: the container is the outer wall) and says so; set ECOV_SANDBOX yourself to
# choose otherwise (bwrap makes a run fail where bubblewrap cannot work).
if [ -z "${ECOV_SANDBOX:-}" ]; then
  if bwrap --unshare-all --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib \
       --symlink usr/lib64 /lib64 --proc /proc --dev /dev /usr/bin/true >/dev/null 2>&1; then
    export ECOV_SANDBOX=bwrap
  else
    export ECOV_SANDBOX=rlimit
    echo "ecov image: bubblewrap cannot create namespaces in this container; builds and simulations run" \
         "under the rlimit sandbox (NOT isolated beyond the container). For bubblewrap: docker run" \
         "--security-opt seccomp=unconfined --security-opt systempaths=unconfined ... (docs/scale.md)" >&2
  fi
fi
exec "$@"
