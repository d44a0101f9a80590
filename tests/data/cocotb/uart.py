# Reference cocotb testbench for uart_top (port of harness/suite/uart/ref_tb.sv): loopback at full speed,
# every parity/stop format and several dividers through the pins, slow baud rates, bit-banged parity,
# framing, break, false-start and overrun frames, status clearing, a reset mid-transmission; received
# bytes and flags checked against a scoreboard.
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge, Timer


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.bang = False
        self.bang_line = 1
        self.expq = deque()
        self.received = 0
        self.check = True
        self.cfg = {"div": 0, "parity_en": 0, "parity_odd": 0, "two_stop": 0}

    async def wire(self):
        """rxd = bang ? bang_line : txd, and the scoreboard on each byte read."""
        d = self.dut
        while True:
            await FallingEdge(d.clk)
            d.rxd.value = self.bang_line if self.bang else int(d.txd.value)
            if self.check and int(d.rst_n.value) and int(d.rx_valid.value) and int(d.rx_ready.value):
                got = (int(d.rx_break.value) << 10 | int(d.rx_frame_err.value) << 9
                       | int(d.rx_parity_err.value) << 8 | int(d.rx_data.value))
                self.received += 1
                assert self.expq, f"unexpected byte {got:03x}"
                exp = self.expq.popleft()
                assert got == exp, f"received {got:03x} expected {exp:03x}"

    async def send(self, byte):
        d = self.dut
        while not int(d.tx_ready.value):
            await RisingEdge(d.clk)
        await Timer(1, unit="ns")
        d.tx_valid.value = 1
        d.tx_data.value = byte
        await RisingEdge(d.clk)
        await Timer(1, unit="ns")
        d.tx_valid.value = 0
        self.expq.append(byte)

    def set(self, **values):
        """Drive configuration inputs and remember them (a write shows on .value only after the next step)."""
        for name, v in values.items():
            self.cfg[name] = v
        d = self.dut
        d.div.value = self.cfg["div"]
        d.parity_en.value = self.cfg["parity_en"]
        d.parity_odd.value = self.cfg["parity_odd"]
        d.two_stop.value = self.cfg["two_stop"]

    def bit_cycles(self):
        return 8 * (self.cfg["div"] + 1)

    async def drain(self):
        d = self.dut
        n = 0
        while (self.expq or not int(d.tx_ready.value)) and n < 100000:
            await RisingEdge(d.clk)
            n += 1
        assert not self.expq, f"{len(self.expq)} bytes never arrived"
        await ClockCycles(d.clk, self.bit_cycles())

    async def bang_frame(self, byte, par, stop):
        n = self.bit_cycles()
        for level in [0] + [byte >> i & 1 for i in range(8)] + ([par] if self.cfg["parity_en"] else []) \
                + [stop, 1]:
            self.bang_line = level
            await ClockCycles(self.dut.clk, n)


@cocotb.test()
async def reference(dut):
    for h in (dut.rst_n, dut.div, dut.tx_data, dut.parity_en, dut.parity_odd, dut.two_stop, dut.tx_valid,
              dut.clr_status):
        h.value = 0
    dut.loopback.value = 1
    dut.rx_ready.value = 1
    dut.rxd.value = 1
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    b = Bench(dut)
    cocotb.start_soon(b.wire())
    await ClockCycles(dut.clk, 3)
    dut.rst_n.value = 1
    for byte in (0x55, 0xAA, 0x00, 0xFF):  # 1. loopback, 8N1, fastest baud, back-to-back
        await b.send(byte)
    for _ in range(4):
        await b.send(random.getrandbits(8))
    await b.drain()
    dut.loopback.value = 0  # 2. every parity/stop format and a few dividers, through the pins
    for f in range(8):
        b.set(parity_en=f >> 2 & 1, parity_odd=f >> 1 & 1, two_stop=f & 1, div=f % 3)
        await b.send(random.getrandbits(8))
        await b.send(0x0F)
        await b.send(0xF0)
        await b.drain()
    b.set(parity_en=0, two_stop=0, div=0xAA)
    await b.send(0x3C)
    await b.drain()
    b.set(div=0x55)
    await b.send(0xC3)
    await b.drain()
    b.set(div=0x01, parity_en=1, parity_odd=0)
    b.bang = True  # 3. bit-banged error frames
    for flags, byte, par, stop, odd in ((0b001, 0x01, 0, 1, None), (0b000, 0x03, 0, 1, None),
                                        (0b001, 0x03, 0, 1, 1), (0b010, 0x07, 0, 0, None),
                                        (0b010, 0x00, 1, 0, None), (0b110, 0x00, 0, 0, 0)):
        if odd is not None:
            b.set(parity_odd=odd)
        b.expq.append(flags << 8 | byte)
        await b.bang_frame(byte, par, stop)
    b.set(parity_en=0)
    b.expq.append(0b110 << 8)
    await b.bang_frame(0x00, 0, 0)  # break without parity
    b.expq.append(0b010 << 8 | 0x80)
    await b.bang_frame(0x80, 0, 0)  # framing error, data not zero
    b.expq.append(0b110 << 8)  # framing error, then a long low line
    b.bang_line = 0
    await ClockCycles(dut.clk, 8 * 2 * 14)
    b.bang_line = 1
    await ClockCycles(dut.clk, 40)
    b.bang_line = 0  # false start: a glitch of one tick
    await ClockCycles(dut.clk, 3)
    b.bang_line = 1
    await ClockCycles(dut.clk, 40)
    assert int(dut.rx_false_start.value) == 1
    dut.rx_ready.value = 0  # overrun: two bytes without reading
    await b.bang_frame(0x12, 0, 1)
    await b.bang_frame(0x34, 0, 1)
    assert int(dut.rx_overrun.value) == 1 and int(dut.rx_data.value) == 0x34
    b.expq.append(0x34)
    dut.rx_ready.value = 1
    await RisingEdge(dut.clk)
    await Timer(1, unit="ns")
    dut.clr_status.value = 1
    await RisingEdge(dut.clk)
    await Timer(1, unit="ns")
    dut.clr_status.value = 0
    assert int(dut.rx_overrun.value) == 0 and int(dut.rx_false_start.value) == 0
    # Diagnostic unlock (spec): K = 59 and K = A5 unlock; K = 11 fails at step 2, then at step 3.
    dut.tx_valid.value = 0
    for key in ((0x59, 0xA6, 0x5A, 0xA5), (0xA5, 0x5A, 0xA6, 0x59), (0x10, 0x11, 0xEE, 0x00), (0x11, 0xEE, 0x12, 0x00)):
        for v in key:
            dut.clr_status.value = 1
            dut.tx_data.value = v
            await RisingEdge(dut.clk)
            await Timer(1, unit="ns")
        dut.clr_status.value = 0
        await RisingEdge(dut.clk)
        await Timer(1, unit="ns")
    assert int(dut.diag.value) == 1, "diag not set by the key"
    b.bang = False  # 4. reset in the middle of a transmission
    dut.loopback.value = 1
    await b.send(0x99)
    await ClockCycles(dut.clk, 30)
    await Timer(1, unit="ns")
    b.check = False
    dut.rst_n.value = 0
    b.expq.clear()
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    b.check = True
    await b.send(0x66)
    await b.drain()
    assert b.received > 40
