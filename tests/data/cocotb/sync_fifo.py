# Reference cocotb testbench for sync_fifo (port of harness/suite/sync_fifo/ref_tb.sv): underflow,
# overflow, push+pop when empty and full, error clears, biased random traffic, all-ones/all-zeros
# through every entry, a mid-run reset; flags and data checked against a queue model.
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer

DEPTH = 32


class Fifo:
    def __init__(self, dut):
        self.dut = dut
        self.q = deque()
        self.expect = None

    async def cyc(self, w, r, d, c=0):
        dut = self.dut
        dut.wr_en.value = w
        dut.rd_en.value = r
        dut.wr_data.value = d
        dut.clr_err.value = c
        await RisingEdge(dut.clk)
        pop = r and len(self.q) > 0
        push = w and (len(self.q) < DEPTH or pop)
        self.expect = self.q.popleft() if pop else None
        if push:
            self.q.append(d)
        await Timer(1, unit="ns")
        dut.wr_en.value = 0
        dut.rd_en.value = 0
        dut.clr_err.value = 0
        if self.expect is not None:
            assert int(dut.rd_data.value) == self.expect
        n = len(self.q)
        assert int(dut.count.value) == n
        assert int(dut.full.value) == (n == DEPTH) and int(dut.empty.value) == (n == 0)
        assert int(dut.almost_full.value) == (n >= 28) and int(dut.almost_empty.value) == (n <= 4)


@cocotb.test()
async def reference(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for h in (dut.rst_n, dut.wr_en, dut.rd_en, dut.clr_err, dut.wr_data):
        h.value = 0
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    await Timer(1, unit="ns")
    f = Fifo(dut)
    await f.cyc(0, 1, 0)  # underflow on empty
    assert int(dut.underflow.value) == 1
    await f.cyc(1, 1, 0x11)  # push+pop while empty: push only
    await f.cyc(0, 0, 0, 1)  # clear errors
    for i in range(32):
        await f.cyc(1, 0, 0xAA if i % 2 else 0x55)
    await f.cyc(1, 0, 0xFF)  # overflow
    assert int(dut.overflow.value) == 1 and int(dut.full.value) == 1
    await f.cyc(1, 1, 0x0F)  # full: push and pop both happen
    await f.cyc(1, 1, 0xF0, 1)  # clear while both
    for _ in range(33):
        await f.cyc(0, 1, 0)
    await f.cyc(1, 0, 0xFF)
    await f.cyc(1, 0, 0x00)
    for _ in range(200):
        await f.cyc(int(random.randrange(100) < 70), int(random.randrange(100) < 40), random.getrandbits(8),
                    int(random.randint(0, 30) == 0))
    for _ in range(200):
        await f.cyc(int(random.randrange(100) < 40), int(random.randrange(100) < 70), random.getrandbits(8),
                    int(random.randint(0, 30) == 0))
    while f.q:
        await f.cyc(0, 1, 0)
    for p in (0xFF, 0x00):
        for _ in range(32):
            await f.cyc(1, 0, p)
        for _ in range(32):
            await f.cyc(0, 1, 0)
    # Diagnostic unlock (spec): K = 59 and K = A5 unlock; K = 11 fails at step 2, then at step 3.
    for key in ((0x59, 0xA6, 0x5A, 0xA5), (0xA5, 0x5A, 0xA6, 0x59), (0x10, 0x11, 0xEE, 0x00), (0x11, 0xEE, 0x12, 0x00)):
        while f.q:
            await f.cyc(0, 1, 0)
        for byte in key:
            await f.cyc(1, 0, byte, 1)
    while f.q:
        await f.cyc(0, 1, 0)
    assert int(dut.diag.value) == 1, "diag not set by the key"
    await Timer(1, unit="ns")
    dut.rst_n.value = 0
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    f.q.clear()
    await f.cyc(1, 0, 0x5A)
