# Reference cocotb testbench for rr_arbiter (port of harness/suite/rr_arbiter/ref_tb.sv): every request
# pattern from every last-winner position, full rotation, locking with starvation, random traffic,
# a mid-run reset; grants checked against a round-robin model.
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer


class Model:
    def __init__(self):
        self.gnt, self.last = 0, 3

    def step(self, r, lk):
        g = self.gnt
        if g & r & lk:
            return
        n = 0
        for i in list(range(self.last + 1, 4)) + list(range(4)):
            if r >> i & 1:
                n = 1 << i
                break
        self.gnt = n
        if n:
            self.last = n.bit_length() - 1


class Bench:
    def __init__(self, dut):
        self.dut, self.m = dut, Model()

    async def cyc(self, r, lk=0, n=1):
        self.dut.req.value = r
        self.dut.lock.value = lk
        for _ in range(n):
            await RisingEdge(self.dut.clk)
            self.m.step(r, lk)
        await Timer(1, unit="ns")
        assert int(self.dut.gnt.value) == self.m.gnt
        if self.m.gnt:
            assert 1 << int(self.dut.gnt_id.value) == self.m.gnt


@cocotb.test()
async def reference(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst_n.value = 0
    dut.req.value = 0
    dut.lock.value = 0
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    await Timer(1, unit="ns")
    b = Bench(dut)
    for last in range(4):
        for p in range(16):
            await b.cyc(1 << last)
            await b.cyc(p)
    await b.cyc(0b1111, 0, 9)
    await b.cyc(0b0000, 0, 2)
    await b.cyc(0b0100)
    await b.cyc(0b0101, 0b0100, 15)
    assert int(dut.starved.value) == 1 and int(dut.starved_id.value) == 0
    for args in [(0b0001, 0, 2), (0b1000,), (0b1010, 0b1000, 15), (0b1110, 0b1000, 3), (0b0110, 0, 4),
                 (0, 0, 2), (0b0010,), (0b0110, 0b0010, 15), (0b1000, 0, 2), (0b1000,), (0b1100, 0b1000, 15),
                 (0b0001,), (0b1001, 0b0001, 15), (0b1111, 0b1111, 4), (0b1011, 0b1111, 4)]:
        await b.cyc(*args)
    for _ in range(300):
        await b.cyc(random.getrandbits(4), random.getrandbits(4) & random.getrandbits(4))
    await b.cyc(0, 0, 2)
    # Diagnostic unlock (spec): K = 59 and K = A5 unlock; K = 11 fails at step 2, then at step 3.
    for key in (((0x9, 0x5), (0x6, 0xA), (0xA, 0x5), (0x5, 0xA)), ((0x5, 0xA), (0xA, 0x5), (0x6, 0xA), (0x9, 0x5)),
                ((0x0, 0x1), (0x1, 0x1), (0xE, 0xE), (0x0, 0x0)), ((0x1, 0x1), (0xE, 0xE), (0x2, 0x1), (0x0, 0x0))):
        for r, lk in key:
            await b.cyc(r, lk)
        await b.cyc(0, 0, 2)
    assert int(dut.diag.value) == 1, "diag not set by the key"
    await Timer(1, unit="ns")
    dut.rst_n.value = 0
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    b.m = Model()
    await b.cyc(0b1001, 0, 3)
