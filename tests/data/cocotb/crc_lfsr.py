# Reference cocotb testbench for crc_lfsr_unit (port of harness/suite/crc_lfsr/ref_tb.sv): the standard
# check values of CRC-8 and CRC-16, random messages in both modes, byte counter saturation, start over
# valid, the LFSR's zero-seed guard and full 65535-step period, and PRNG-fed CRC; checked against models.
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer


def crc_step(m16, c, d):
    if m16:
        n = c ^ (d << 8)
        for _ in range(8):
            n = ((n << 1) ^ 0x1021) & 0xFFFF if n & 0x8000 else (n << 1) & 0xFFFF
        return n
    n = (c & 0xFF) ^ d
    for _ in range(8):
        n = ((n << 1) ^ 0x07) & 0xFF if n & 0x80 else (n << 1) & 0xFF
    return n


def lfsr_step(s):
    return (s >> 1) ^ 0xB400 if s & 1 else s >> 1


class Bench:
    def __init__(self, dut):
        self.dut = dut

    async def tick(self):
        await RisingEdge(self.dut.clk)
        await Timer(1, unit="ns")

    async def begin_msg(self, m16):
        d = self.dut
        d.mode16.value = m16
        d.start.value = 1
        await self.tick()
        d.start.value = 0
        assert int(d.crc.value) == (0xFFFF if m16 else 0) and int(d.nbytes.value) == 0

    async def send(self, byte):
        d = self.dut
        exp = crc_step(int(d.mode16.value), int(d.crc.value), byte)
        d.data.value = byte
        d.valid.value = 1
        await self.tick()
        d.valid.value = 0
        assert int(d.crc.value) == exp

    async def check_value(self, v):
        d = self.dut
        d.expected.value = v
        await Timer(1, unit="ns")
        assert int(d.match.value) == 1
        d.expected.value = ~v & 0xFFFF
        await Timer(1, unit="ns")
        assert int(d.match.value) == 0


@cocotb.test()
async def reference(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for h in (dut.rst_n, dut.mode16, dut.start, dut.valid, dut.use_prng, dut.lfsr_load, dut.lfsr_en, dut.data,
              dut.expected, dut.lfsr_seed):
        h.value = 0
    b = Bench(dut)
    await b.tick()
    await b.tick()
    dut.rst_n.value = 1
    await Timer(1, unit="ns")
    for m16, check in ((0, 0x00F4), (1, 0x29B1)):
        await b.begin_msg(m16)
        for ch in b"123456789":
            await b.send(ch)
        await b.check_value(check)
    for m in range(6):
        await b.begin_msg(m & 1)
        await b.send(0x00)
        await b.send(0xFF)
        for _ in range(random.randint(5, 40)):
            await b.send(random.getrandbits(8))
        dut.expected.value = int(dut.crc.value)
        await Timer(1, unit="ns")
        assert int(dut.match.value) == 1
    await b.begin_msg(1)
    for _ in range(260):
        await b.send(random.getrandbits(8))
    assert int(dut.nbytes.value) == 0xFF
    dut.start.value = 1
    dut.valid.value = 1
    await b.tick()
    dut.start.value = 0
    dut.valid.value = 0
    for seed in (0xFFFF, 0x5A5A, 0xA5A5):
        dut.lfsr_seed.value = seed
        dut.lfsr_load.value = 1
        await b.tick()
        dut.lfsr_load.value = 0
        assert int(dut.prng.value) == seed
    dut.lfsr_seed.value = 0
    dut.lfsr_load.value = 1
    await b.tick()
    dut.lfsr_load.value = 0
    assert int(dut.zero_seed.value) == 1 and int(dut.prng.value) == 0x0001
    dut.lfsr_seed.value = 0xACE1
    dut.lfsr_load.value = 1
    dut.lfsr_en.value = 1
    await b.tick()
    dut.lfsr_load.value = 0
    exp = lfsr_step(int(dut.prng.value))
    await b.tick()
    assert int(dut.prng.value) == exp
    await ClockCycles(dut.clk, 65534)  # the rest of the full period
    await Timer(1, unit="ns")
    assert int(dut.prng.value) == 0xACE1 and int(dut.period.value) == 1
    dut.lfsr_en.value = 0
    await b.begin_msg(0)
    dut.use_prng.value = 1
    for _ in range(20):
        p = int(dut.prng.value)
        exp, exp_p = crc_step(0, int(dut.crc.value), p & 0xFF), lfsr_step(p)
        dut.valid.value = 1
        await b.tick()
        dut.valid.value = 0
        assert int(dut.crc.value) == exp and int(dut.prng.value) == exp_p
        await b.tick()
    dut.use_prng.value = 0
    await Timer(1, unit="ns")
    dut.rst_n.value = 0
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    await b.tick()
