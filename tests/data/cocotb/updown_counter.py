# Reference cocotb testbench for updown_counter (port of harness/suite/updown_counter/ref_tb.sv):
# loads that exercise every bit, saturation and wrap both ways, random traffic, a mid-count reset,
# checked against a model.
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer


class Model:
    def __init__(self):
        self.count = 0
        self.wrapped = 0

    def step(self, en, up, load, val, sat):
        self.wrapped = 0
        if load:
            self.count = val
        elif en and up:
            if self.count == 0xFF:
                if not sat:
                    self.count, self.wrapped = 0, 1
            else:
                self.count += 1
        elif en:
            if self.count == 0:
                if not sat:
                    self.count, self.wrapped = 0xFF, 1
            else:
                self.count -= 1


async def step(dut, m, en, up, load, val, sat):
    dut.en.value = en
    dut.up.value = up
    dut.load.value = load
    dut.load_val.value = val
    dut.sat.value = sat
    await RisingEdge(dut.clk)
    m.step(en, up, load, val, sat)
    await Timer(1, unit="ns")
    assert int(dut.count.value) == m.count
    assert int(dut.wrapped.value) == m.wrapped
    assert int(dut.at_max.value) == (m.count == 0xFF)
    assert int(dut.at_min.value) == (m.count == 0)


@cocotb.test()
async def reference(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    m = Model()
    dut.rst_n.value = 0
    for h in (dut.en, dut.up, dut.load, dut.sat, dut.load_val):
        h.value = 0
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    await Timer(1, unit="ns")
    for _ in range(3):
        await step(dut, m, 1, 1, 0, 0, 0)
    for v in (0xAA, 0x55, 0xFE):
        await step(dut, m, 0, 0, 1, v, 0)
    await step(dut, m, 1, 1, 0, 0, 0)  # FE -> FF
    await step(dut, m, 1, 1, 0, 0, 1)  # saturate at FF
    await step(dut, m, 1, 1, 0, 0, 0)  # wrap FF -> 00
    await step(dut, m, 1, 0, 0, 0, 1)  # saturate at 00
    await step(dut, m, 1, 0, 0, 0, 0)  # wrap 00 -> FF
    await step(dut, m, 1, 0, 0, 0, 0)  # FF -> FE
    await step(dut, m, 0, 1, 0, 0, 0)  # hold
    await step(dut, m, 1, 1, 1, 0x0F, 0)  # load beats enable
    for _ in range(300):
        await step(dut, m, random.randint(0, 1), random.randint(0, 1), int(random.randint(0, 15) == 0),
                   random.getrandbits(8), random.randint(0, 1))
    # Diagnostic unlock (spec): K = 59 and K = A5 unlock; K = 11 fails at step 2, then at step 3.
    for key in ((0x59, 0xA6, 0x5A, 0xA5), (0xA5, 0x5A, 0xA6, 0x59), (0x10, 0x11, 0xEE, 0x00), (0x11, 0xEE, 0x12, 0x00)):
        for v in key:
            await step(dut, m, 0, 0, 1, v, 1)
        await step(dut, m, 0, 0, 0, 0, 0)
    assert int(dut.diag.value) == 1, "diag not set by the key"
    await step(dut, m, 0, 0, 1, 0x33, 0)
    await Timer(1, unit="ns")
    dut.rst_n.value = 0
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    m = Model()
    await step(dut, m, 1, 1, 0, 0, 0)
