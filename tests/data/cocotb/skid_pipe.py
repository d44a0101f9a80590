# Reference cocotb testbench for stream_pipe (port of harness/suite/skid_pipe/ref_tb.sv): full throughput,
# blocked output (skid fills), random valid/ready mixes, flushes with and without beats inside, one
# over-long packet, a mid-run reset; output beats checked against a scoreboard.
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.valid_pct, self.ready_pct, self.last_pct = 100, 100, 25
        self.cur_len = 0
        self.expq = deque()
        self.n_out = 0
        self.s_ready_q = 0
        self.checking = True
        self.keying = False

    async def drive(self):
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            # Scoreboard: sample what happened on this edge (values before the drivers change them).
            if int(d.rst_n.value) and not int(d.flush.value) and self.checking:
                if int(d.s_valid.value) and self.s_ready_now:
                    v = int(d.s_data.value) * 3
                    self.expq.append((int(d.s_last.value), 1, 0xFF) if v > 255 else (int(d.s_last.value), 0, v))
                if self.m_valid_now and int(d.m_ready.value):
                    self.n_out += 1
                    assert self.expq, "output beat with nothing sent"
                    assert self.m_beat == self.expq.popleft()
            ready_q = self.s_ready_q
            self.s_ready_q = int(self.s_ready_now) and not int(d.flush.value)
            await Timer(1, unit="ns")
            if not self.keying and (not int(d.s_valid.value) or ready_q):
                valid = random.randrange(100) < self.valid_pct
                d.s_valid.value = int(valid)
                d.s_data.value = random.getrandbits(8)
                last = valid and (random.randrange(100) < self.last_pct or (self.last_pct != 0 and self.cur_len >= 12))
                d.s_last.value = int(last)
                if valid:
                    self.cur_len = 0 if last else self.cur_len + 1
            d.m_ready.value = int(random.randrange(100) < self.ready_pct)

    async def sample(self):
        """Outputs just before each edge (what the edge sees)."""
        d = self.dut
        while True:
            await Timer(4, unit="ns")
            self.s_ready_now = int(d.s_ready.value)
            self.m_valid_now = int(d.m_valid.value)
            self.m_beat = (int(d.m_last.value), int(d.m_sat.value), int(d.m_data.value))
            await RisingEdge(d.clk)

    async def run(self, n, vp, rp):
        self.valid_pct, self.ready_pct = vp, rp
        for _ in range(n):
            await RisingEdge(self.dut.clk)

    async def do_flush(self):
        d = self.dut
        await RisingEdge(d.clk)
        await Timer(2, unit="ns")
        d.flush.value = 1
        await RisingEdge(d.clk)
        await Timer(2, unit="ns")
        d.flush.value = 0
        self.expq.clear()


@cocotb.test()
async def reference(dut):
    for h in (dut.rst_n, dut.flush, dut.s_valid, dut.s_last, dut.m_ready, dut.s_data):
        h.value = 0
    await Timer(1, unit="ns")
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    b = Bench(dut)
    b.s_ready_now = b.m_valid_now = 0
    b.m_beat = (0, 0, 0)
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    cocotb.start_soon(b.sample())
    cocotb.start_soon(b.drive())
    await b.run(40, 100, 100)
    await b.run(40, 100, 0)
    await b.run(300, 100, 50)
    await b.run(200, 50, 100)
    await b.run(200, 70, 70)
    await b.run(10, 100, 0)
    await b.do_flush()
    assert int(dut.dropped.value) == 1
    await b.run(30, 0, 100)
    assert int(dut.oversize.value) == 0
    b.last_pct = 0
    await b.run(40, 100, 100)
    b.last_pct = 25
    assert int(dut.oversize.value) == 1
    await b.do_flush()
    await b.run(300, 90, 60)
    b.valid_pct, b.ready_pct = 0, 100
    await b.run(10, 0, 100)
    assert not b.expq, f"{len(b.expq)} beats lost"
    # Diagnostic unlock (spec): K = 59 and K = A5 unlock; K = 11 fails at step 2, then at step 3.
    b.keying, b.checking = True, False
    await RisingEdge(dut.clk)
    await Timer(1, unit="ns")
    for key in ((0x59, 0xA6, 0x5A, 0xA5), (0xA5, 0x5A, 0xA6, 0x59), (0x10, 0x11, 0xEE, 0x00), (0x11, 0xEE, 0x12, 0x00)):
        dut.flush.value = 1
        dut.s_valid.value = 1
        for v in key:
            dut.s_data.value = v
            await RisingEdge(dut.clk)
            await Timer(1, unit="ns")
        dut.flush.value = 0
        dut.s_valid.value = 0
        await RisingEdge(dut.clk)
        await Timer(1, unit="ns")
    b.expq.clear()
    b.keying, b.checking = False, True
    assert int(dut.diag.value) == 1, "diag not set by the key"
    await Timer(2, unit="ns")
    b.checking = False
    dut.rst_n.value = 0
    b.expq.clear()
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    await b.run(10, 100, 100)
    assert b.n_out > 500
