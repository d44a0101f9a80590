"""The binary trace of what a DUT saw at its ports: a pure reader and writer (no files, no processes).

Run 1 (the testbench's run, untrusted) writes it through the harness recorder (ecov.harness.sim.recorder);
the trusted replay (ecov.harness.sim.replay) reads it back, and may write the DUT's outputs in the same
format. A trace is hostile input: every read is bounds-checked, and a trace that is truncated, has
bytes after its final record, a record of an unknown kind or a value wider than its port raises
``TraceError``; nothing is guessed.

Layout, little-endian::

    header  "ECOVTRC1"  i32 precision (the simulator's time unit as a power of ten: -12 = ps)
            u32 n_ports   n_ports x (u16 name length, name (ASCII), u32 width in bits)
            u32 n_params  n_params x (u16 name length, name, u32 width, ceil(width/32) x u32 value words)
    records u8 kind, u64 time, then
            SAMPLE (1), STEP (2): every port's value, ports in header order, each ceil(width/32) u32 words
                                  (word 0 = bits 31..0)
            FINAL (3): u32 flags (bit 0: $finish was reached); the last record, exactly once

SAMPLE records hold the DUT's inputs as its flops sampled them at a clock edge; STEP records the values
at the end of a time step (written only when they changed). The header's port and parameter section
(``Header.design_bytes``) identifies the DUT build: a replay refuses a trace whose section differs from
its own.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

MAGIC = b"ECOVTRC1"
SAMPLE, STEP, FINAL = 1, 2, 3
KINDS = (SAMPLE, STEP, FINAL)
MAX_PORTS = 4096
MAX_NAME = 255
MAX_WIDTH = 1 << 20  # bits of one port or parameter
MAX_RECORD_WORDS = 1 << 18  # u32 words of one record's values


class TraceError(ValueError):
    """A trace that cannot be read as written by the harness: truncated, malformed, or over its cap."""


@dataclass(frozen=True)
class Port:
    name: str
    width: int

    @property
    def words(self) -> int:
        return (self.width + 31) // 32


@dataclass(frozen=True)
class Param:
    name: str
    width: int
    value: int  # the parameter's bits as an unsigned integer


@dataclass(frozen=True)
class Header:
    precision: int  # time unit of record times, as a power of ten (-12: ps)
    ports: tuple[Port, ...]
    params: tuple[Param, ...] = ()

    @property
    def record_words(self) -> int:
        return sum(p.words for p in self.ports)

    def design_bytes(self) -> bytes:
        """The port and parameter section: equal for two runs of the same DUT build, whatever the testbench."""
        return _ports_bytes(self.ports) + _params_bytes(self.params)

    def param_values(self) -> dict[str, int]:
        return {p.name: p.value for p in self.params}


@dataclass(frozen=True)
class Record:
    kind: int
    time: int
    values: tuple[int, ...] = ()  # one unsigned int per port; FINAL: (flags,)


@dataclass
class Trace:
    header: Header
    records: list[Record] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """``$finish`` was reached (the FINAL record's flag)."""
        return bool(self.records and self.records[-1].kind == FINAL and self.records[-1].values[0] & 1)

    @property
    def end_time(self) -> int:
        return self.records[-1].time if self.records else 0


# --------------------------------------------------------------------------------------------
# Writing


def _name(name: str) -> bytes:
    raw = name.encode("ascii")
    if not raw or len(raw) > MAX_NAME:
        raise TraceError(f"bad name {name!r}")
    return struct.pack("<H", len(raw)) + raw


def _words(value: int, width: int) -> bytes:
    if value < 0 or value >> width:
        raise TraceError(f"value {value:#x} does not fit {width} bits")
    n = (width + 31) // 32
    return value.to_bytes(4 * n, "little")


def _ports_bytes(ports: tuple[Port, ...]) -> bytes:
    return struct.pack("<I", len(ports)) + b"".join(_name(p.name) + struct.pack("<I", p.width) for p in ports)


def _params_bytes(params: tuple[Param, ...]) -> bytes:
    return struct.pack("<I", len(params)) + b"".join(
        _name(p.name) + struct.pack("<I", p.width) + _words(p.value, p.width) for p in params)


def encode_header(header: Header) -> bytes:
    return MAGIC + struct.pack("<i", header.precision) + header.design_bytes()


def encode_record(header: Header, record: Record) -> bytes:
    head = struct.pack("<BQ", record.kind, record.time)
    if record.kind == FINAL:
        return head + struct.pack("<I", record.values[0] if record.values else 0)
    if record.kind not in KINDS or len(record.values) != len(header.ports):
        raise TraceError(f"record of kind {record.kind} with {len(record.values)} values for {len(header.ports)} ports")
    return head + b"".join(_words(v, p.width) for v, p in zip(record.values, header.ports, strict=True))


def encode(trace: Trace) -> bytes:
    return encode_header(trace.header) + b"".join(encode_record(trace.header, r) for r in trace.records)


# --------------------------------------------------------------------------------------------
# Reading


class _Reader:
    def __init__(self, data: bytes, pos: int = 0):
        self.data = memoryview(data)
        self.pos = pos

    def take(self, n: int) -> memoryview:
        if n < 0 or self.pos + n > len(self.data):
            raise TraceError(f"truncated at byte {self.pos} (needs {n} more of {len(self.data) - self.pos})")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def unpack(self, fmt: str):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))

    def name(self) -> str:
        (n,) = self.unpack("<H")
        if not 0 < n <= MAX_NAME:
            raise TraceError(f"bad name length {n} at byte {self.pos - 2}")
        raw = bytes(self.take(n))
        if not all(c == 0x5F or 0x30 <= c <= 0x39 or 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A for c in raw):
            raise TraceError(f"bad name {raw[:40]!r}")
        return raw.decode("ascii")

    def width(self) -> int:
        (w,) = self.unpack("<I")
        if not 0 < w <= MAX_WIDTH:
            raise TraceError(f"bad width {w} at byte {self.pos - 4}")
        return w

    def value(self, width: int) -> int:
        v = int.from_bytes(self.take(4 * ((width + 31) // 32)), "little")
        if v >> width:
            raise TraceError(f"a value wider than its {width} bits at byte {self.pos}")
        return v


def decode_header(data: bytes, cap: int | None = None) -> tuple[Header, int]:
    """The header and the offset of the first record."""
    if cap is not None and len(data) > cap:
        raise TraceError(f"the trace is {len(data)} bytes, over its cap of {cap}")
    r = _Reader(data)
    if bytes(r.take(len(MAGIC))) != MAGIC:
        raise TraceError("not an ECov trace (bad magic)")
    (precision,) = r.unpack("<i")
    if not -18 <= precision <= 2:
        raise TraceError(f"bad time precision 10^{precision}")
    (n,) = r.unpack("<I")
    if n > MAX_PORTS:
        raise TraceError(f"{n} ports (at most {MAX_PORTS})")
    ports = tuple(Port(r.name(), r.width()) for _ in range(n))
    (m,) = r.unpack("<I")
    if m > MAX_PORTS:
        raise TraceError(f"{m} parameters (at most {MAX_PORTS})")
    params = []
    for _ in range(m):
        name, width = r.name(), r.width()
        params.append(Param(name, width, r.value(width)))
    header = Header(precision, ports, tuple(params))
    if len({p.name for p in ports}) != len(ports) or header.record_words > MAX_RECORD_WORDS:
        raise TraceError("duplicate port names, or records too wide")
    return header, r.pos


def decode(data: bytes, cap: int | None = None) -> Trace:
    """The whole trace; it must end with exactly one FINAL record, times never decreasing."""
    header, pos = decode_header(data, cap)
    r = _Reader(data, pos)
    records: list[Record] = []
    last = 0
    while r.pos < len(r.data):
        kind, time = r.unpack("<BQ")
        if kind not in KINDS:
            raise TraceError(f"unknown record kind {kind} at byte {r.pos - 9}")
        if time < last:
            raise TraceError(f"time goes back ({time} after {last}) at byte {r.pos - 9}")
        last = time
        if kind == FINAL:
            (flags,) = r.unpack("<I")
            records.append(Record(FINAL, time, (flags,)))
            if r.pos != len(r.data):
                raise TraceError(f"{len(r.data) - r.pos} bytes after the final record")
            return Trace(header, records)
        records.append(Record(kind, time, tuple(r.value(p.width) for p in header.ports)))
    raise TraceError("no final record: the recording was cut short")


__all__ = ["MAGIC", "SAMPLE", "STEP", "FINAL", "TraceError", "Port", "Param", "Header", "Record", "Trace",
           "encode", "encode_header", "encode_record", "decode", "decode_header"]
