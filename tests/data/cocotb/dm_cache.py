# Reference cocotb testbench for dm_cache (port of harness/suite/dm_cache/ref_tb.sv): cold misses, hits,
# dirty evictions, write misses, memory errors on clean and dirty victims, flushes (with a request
# waiting, and of an empty cache), memory back-pressure with random traffic, statistics saturation,
# a mid-run reset; responses checked against a tag model and a golden memory.
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.memory = [(a * 7 + 3) & 0xFF for a in range(256)]
        self.golden = list(self.memory)
        self.bad = {0xE5, 0x1F}
        self.m_valid = [False] * 8
        self.m_tag = [0] * 8
        self.stall_pct = 0
        self.n_reads = 0

    async def memory_model(self):
        d = self.dut
        pending = None  # [cycles left, address]
        while True:
            await FallingEdge(d.clk)
            fire = int(d.mem_valid.value) and int(d.mem_ready.value)
            we, addr, wdata = int(d.mem_we.value), int(d.mem_addr.value), int(d.mem_wdata.value)
            await RisingEdge(d.clk)
            await Timer(1, unit="ns")
            d.mem_rvalid.value = 0
            d.mem_err.value = 0
            d.mem_rdata.value = random.getrandbits(8)
            if fire:
                if we:
                    self.memory[addr] = wdata
                else:
                    pending = [random.randint(0, 2), addr]
            if pending is not None:
                if pending[0] == 0:
                    d.mem_rvalid.value = 1
                    d.mem_rdata.value = self.memory[pending[1]]
                    d.mem_err.value = int(pending[1] in self.bad)
                    pending = None
                else:
                    pending[0] -= 1
            d.mem_ready.value = int(random.randrange(100) >= self.stall_pct)

    async def access(self, we, addr, wdata=0):
        d = self.dut
        line, tag = addr & 7, addr >> 3
        exp_hit = self.m_valid[line] and self.m_tag[line] == tag
        while not int(d.req_ready.value):
            await RisingEdge(d.clk)
        await Timer(1, unit="ns")
        d.req_valid.value = 1
        d.req_we.value = we
        d.req_addr.value = addr
        d.req_wdata.value = wdata
        await RisingEdge(d.clk)
        await Timer(1, unit="ns")
        d.req_valid.value = 0
        n = 0
        while not int(d.resp_valid.value) and n < 100:
            await RisingEdge(d.clk)
            await Timer(1, unit="ns")
            n += 1
        assert int(d.resp_valid.value), f"no response for {addr:02x}"
        assert int(d.resp_hit.value) == exp_hit, f"addr {addr:02x} hit"
        if addr in self.bad and not exp_hit:
            assert int(d.resp_err.value) == 1
            self.m_valid[line] = False
        else:
            assert int(d.resp_err.value) == 0
            if we:
                self.golden[addr] = wdata
            else:
                self.n_reads += 1
                assert int(d.resp_rdata.value) == self.golden[addr]
            self.m_valid[line], self.m_tag[line] = True, tag

    async def do_flush(self):
        d = self.dut
        while not int(d.req_ready.value):
            await RisingEdge(d.clk)
        await Timer(1, unit="ns")
        d.flush.value = 1
        n = 0
        while not int(d.flush_done.value) and n < 200:
            await RisingEdge(d.clk)
            await Timer(1, unit="ns")
            n += 1
        d.flush.value = 0
        self.m_valid = [False] * 8
        assert int(d.valid_lines.value) == 0 and int(d.dirty_lines.value) == 0
        assert self.memory == self.golden


@cocotb.test()
async def reference(dut):
    for h in (dut.rst_n, dut.req_valid, dut.req_we, dut.flush, dut.req_addr, dut.req_wdata, dut.mem_rvalid,
              dut.mem_err, dut.mem_rdata):
        h.value = 0
    dut.mem_ready.value = 1
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    b = Bench(dut)
    cocotb.start_soon(b.memory_model())
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    for i in range(8):
        await b.access(0, i)
    for i in range(8):
        await b.access(0, i)
    for i in range(8):
        await b.access(1, i, 0xA0 + i)
    for i in range(8):
        await b.access(0, 0xF8 + i)  # evict all dirty lines
    for i in range(8):
        await b.access(1, 0x58 + i, random.getrandbits(8))  # write miss, clean victim
    await b.access(1, 0xFF, 0x5A)
    await b.access(1, 0xFF, 0xA5)
    await b.access(0, 0x07)
    await b.access(0, 0xFF)
    await b.access(0, 0xE5)  # memory errors: clean victim, dirty victim, then retry
    await b.access(1, 0x1D, 0x77)
    await b.access(0, 0xE5)
    await b.access(0, 0x1F)
    await b.access(0, 0x1F)
    await b.access(0, 0x07)
    await b.access(1, 0x10, 0x01)
    await b.access(0, 0x21)
    await b.access(1, 0x33, 0xFE)
    dut.req_valid.value = 1  # flush with a request waiting, and write-backs the memory stalls
    dut.req_addr.value = 0x10
    dut.req_we.value = 0
    b.stall_pct = 60
    await b.do_flush()
    b.stall_pct = 0
    dut.req_valid.value = 0
    await b.do_flush()  # empty cache
    b.stall_pct = 60
    for _ in range(300):
        addr = (0b111 << 5 if random.randint(0, 3) == 0 else 0) | random.getrandbits(5)
        await b.access(int(random.randint(0, 2) == 0), addr, random.getrandbits(8))
    await b.do_flush()
    b.stall_pct = 0
    for _ in range(260):
        await b.access(0, 0x42)
    for _ in range(130):
        await b.access(0, 0x03)
        await b.access(0, 0x0B)
    assert int(dut.hit_count.value) == 0xFF and int(dut.miss_count.value) == 0xFF
    await b.do_flush()
    await Timer(1, unit="ns")
    dut.rst_n.value = 0
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    b.m_valid = [False] * 8
    await b.access(0, 0x00)
    assert b.n_reads > 100
