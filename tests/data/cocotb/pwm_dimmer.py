# Reference cocotb testbench for pwm_dimmer (port of harness/suite/pwm_dimmer/ref_tb.sv): bouncing
# presses, glitches, every level with its duty cycle, saturation, long press, wrap mode, a mid-run reset.
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.level = 0

    async def wait_cycles(self, n):
        for _ in range(n):
            await RisingEdge(self.dut.clk)
        await Timer(1, unit="ns")

    async def press(self, hold, bounce=True):
        dut = self.dut
        if bounce:
            for _ in range(3):
                dut.btn.value = 1
                await self.wait_cycles(random.randint(1, 5))
                dut.btn.value = 0
                await self.wait_cycles(random.randint(1, 4))
        dut.btn.value = 1
        await self.wait_cycles(hold)
        if bounce:
            for _ in range(2):
                dut.btn.value = 0
                await self.wait_cycles(random.randint(1, 3))
                dut.btn.value = 1
                await self.wait_cycles(random.randint(1, 3))
        dut.btn.value = 0
        await self.wait_cycles(14)

    async def short_press(self):
        await self.press(12)
        wrap = int(self.dut.wrap_mode.value)
        self.level = (0 if wrap else 8) if self.level == 8 else self.level + 1
        assert int(self.dut.level.value) == self.level

    async def check_duty(self):
        dut = self.dut
        await self.wait_cycles(10)
        while True:
            await RisingEdge(dut.clk)
            await Timer(1, unit="ns")
            if int(dut.pwm_sync.value):
                break
        high = 0
        for _ in range(8):
            high += int(dut.led.value)
            await RisingEdge(dut.clk)
            await Timer(1, unit="ns")
        assert high == self.level, f"duty {high}/8 at level {self.level}"


@cocotb.test()
async def reference(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst_n.value = 0
    dut.btn.value = 0
    dut.wrap_mode.value = 0
    b = Bench(dut)
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    await b.check_duty()
    for _ in range(4):  # glitches shorter than the debounce time are ignored
        dut.btn.value = 1
        await b.wait_cycles(5)
        dut.btn.value = 0
        await b.wait_cycles(3)
    await b.wait_cycles(12)
    assert int(dut.pressed.value) == 0 and int(dut.level.value) == 0
    for _ in range(10):
        await b.short_press()
        await b.check_duty()
    await b.press(60)  # long press switches off
    b.level = 0
    assert int(dut.level.value) == 0
    dut.wrap_mode.value = 1
    for _ in range(10):
        await b.short_press()
    await b.check_duty()
    await b.press(45, bounce=False)
    b.level = 0
    await b.short_press()
    # Service code on wrap_mode (spec): a wrong pulse, a wrong gap, a 16-cycle pulse, then 4, 6, 9, 7.
    for high, low in ((5, 3), (4, 2), (16, 3), (4, 3), (6, 3), (9, 3), (7, 16)):
        dut.wrap_mode.value = 1
        await b.wait_cycles(high)
        dut.wrap_mode.value = 0
        await b.wait_cycles(low)
    assert int(dut.diag.value) == 1, "diag not set by the service code"
    await Timer(1, unit="ns")
    dut.rst_n.value = 0
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    b.level = 0
    dut.wrap_mode.value = 0
    await b.short_press()
