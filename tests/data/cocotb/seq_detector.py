# Reference cocotb testbench for seq_detector (port of harness/suite/seq_detector/ref_tb.sv): overlapping
# and non-overlapping matches, timeouts from every partial match, near-timeouts, counter saturation and
# clear, random bits, a mid-run reset; state, detect, count and timeout checked against a model.
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer


def next_state(st, b, ovl):
    if st == 0:
        return 1 if b else 0
    if st == 1:
        return 1 if b else 2
    if st == 2:
        return 3 if b else 0
    if st == 3:
        return 4 if b else 2
    return 1 if b else (2 if ovl else 0)


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.state = self.idle_n = self.count = 0

    def check(self, exp_timeout):
        d = self.dut
        got = (int(d.state_o.value), int(d.detect.value), int(d.count.value), int(d.timeout.value))
        assert got == (self.state, int(self.state == 4), self.count, exp_timeout), got

    async def put(self, b):
        d = self.dut
        d.din_valid.value = 1
        d.din.value = b
        await RisingEdge(d.clk)
        await Timer(1, unit="ns")
        d.din_valid.value = 0
        if self.state == 3 and b and not int(d.clr_count.value) and self.count < 15:
            self.count += 1
        self.state = next_state(self.state, b, int(d.overlap.value))
        self.idle_n = 0
        self.check(0)

    async def idle(self, n):
        for _ in range(n):
            to = 0
            await RisingEdge(self.dut.clk)
            await Timer(1, unit="ns")
            if self.state in (1, 2, 3):
                if self.idle_n == 7:
                    self.state, self.idle_n, to = 0, 0, 1
                else:
                    self.idle_n += 1
            self.check(to)

    async def put_bits(self, bits, n):
        for i in range(n - 1, -1, -1):
            await self.put(bits >> i & 1)


@cocotb.test()
async def reference(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for h in (dut.rst_n, dut.din_valid, dut.din, dut.clr_count):
        h.value = 0
    dut.overlap.value = 1
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    await Timer(1, unit="ns")
    b = Bench(dut)
    await b.put_bits(0b1011011, 7)
    dut.overlap.value = 0
    await b.put_bits(0b1011011, 7)
    await b.put_bits(0b0101100, 7)
    dut.overlap.value = 1
    await b.put_bits(0b1110010, 7)
    await b.put_bits(0b1010, 4)
    for i, prefix in enumerate((0b1, 0b10, 0b101)):
        await b.put(0)
        await b.put(0)
        await b.put_bits(prefix, i + 1)
        await b.idle(9)
        assert int(dut.state_o.value) == 0
    await b.put_bits(0b1011, 4)
    await b.idle(12)
    assert int(dut.detect.value) == 1
    await b.put(0)
    await b.put(0)
    await b.idle(5)
    await b.put(1)
    await b.idle(3)
    await b.put(0)
    await b.idle(7)
    await b.put(1)
    for _ in range(18):
        await b.put_bits(0b1011, 4)
    b.count = 0
    dut.clr_count.value = 1
    await b.put(0)
    dut.clr_count.value = 0
    for _ in range(400):
        if random.randint(0, 3) == 0:
            await b.idle(random.randint(1, 3))
        if random.randint(0, 7) == 0:
            dut.overlap.value = 1 - int(dut.overlap.value)
        await b.put(random.getrandbits(1))
    # Service code on clr_count (spec): a wrong pulse, a wrong gap, a 16-cycle pulse, then 4, 6, 9, 7.
    for high, low in ((5, 3), (4, 2), (16, 3), (4, 3), (6, 3), (9, 3), (7, 16)):
        dut.clr_count.value = 1
        await ClockCycles(dut.clk, high)
        dut.clr_count.value = 0
        await ClockCycles(dut.clk, low)
    await Timer(1, unit="ns")
    assert int(dut.diag.value) == 1, "diag not set by the service code"
    await Timer(1, unit="ns")
    dut.rst_n.value = 0
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    await Timer(10, unit="ns")
