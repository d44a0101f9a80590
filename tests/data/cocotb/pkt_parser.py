# Reference cocotb testbench for pkt_parser (port of harness/suite/pkt_parser/ref_tb.sv): every command,
# gaps, checksum errors in either byte, length errors, counter saturation, clearing by command and by
# clr_stats, garbage while hunting, a mid-packet reset and random packets, against a byte-level model.
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer

GARBAGE = (0x00, 0xFF, 0x5A, 0xA4, 0xA6, 0x13)


def sat(v):
    return v if v == 15 else v + 1


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.model_reset()
        self.e_good = self.e_bad = self.e_len = 0

    def model_reset(self):
        self.st = self.plen = self.idx = self.op = self.arg = self.chk1 = self.s1 = self.s2 = 0
        self.a = self.b = self.resp = self.good = self.bad = self.len = self.cmderr = 0

    def check(self):
        d = self.dut
        got = (int(d.pkt_good.value), int(d.pkt_bad.value), int(d.len_err.value), int(d.cmd_err.value),
               int(d.reg_a.value), int(d.reg_b.value), int(d.resp.value), int(d.good_cnt.value),
               int(d.bad_cnt.value), int(d.len_cnt.value), int(d.state_o.value))
        exp = (self.e_good, self.e_bad, self.e_len, self.cmderr, self.a, self.b, self.resp, self.good, self.bad,
               self.len, self.st)
        assert got == exp, f"got {got} expected {exp}"

    async def cycle(self, v, data, clr):
        d = self.dut
        d.in_valid.value, d.in_data.value, d.clr_stats.value = v, data, clr
        await RisingEdge(d.clk)
        await Timer(1, unit="ns")
        self.e_good = self.e_bad = self.e_len = 0
        if v:
            if self.st == 0:
                if data == 0xA5:
                    self.st = 1
                self.s1 = self.s2 = 0
            elif self.st == 1:
                if data == 0 or data > 8:
                    self.e_len, self.len, self.st = 1, sat(self.len), 0
                else:
                    self.plen, self.idx, self.st = data, 0, 2
                    self.s1 = (self.s1 + data) & 0xFF
                    self.s2 = (self.s2 + self.s1) & 0xFF
            elif self.st == 2:
                if self.idx == 0:
                    self.op = data
                if self.idx == 1:
                    self.arg = data
                self.idx += 1
                self.s1 = (self.s1 + data) & 0xFF
                self.s2 = (self.s2 + self.s1) & 0xFF
                if self.idx == self.plen:
                    self.st = 3
            elif self.st == 3:
                self.chk1, self.st = data, 4
            else:
                self.st = 0
                if self.chk1 == self.s1 and data == self.s2:
                    self.e_good, self.good = 1, sat(self.good)
                    if self.op in (1, 2):
                        if self.plen >= 2:
                            if self.op == 1:
                                self.a = self.arg
                            else:
                                self.b = self.arg
                        else:
                            self.cmderr = 1
                    elif self.op == 3:
                        self.good = self.bad = self.len = 0
                    elif self.op == 4:
                        self.resp = self.a ^ self.b
                    elif self.op == 5:
                        self.resp = (self.a + self.b) & 0xFF
                    else:
                        self.cmderr = 1
                else:
                    self.e_bad, self.bad = 1, sat(self.bad)
        if clr:
            self.good = self.bad = self.len = self.cmderr = 0
        self.check()

    async def put(self, data):
        await self.cycle(1, data, 0)

    async def idle(self, n):
        for _ in range(n):
            await self.cycle(0, random.getrandbits(8), 0)

    async def send(self, payload, corrupt=0, gap=0):
        s1 = s2 = len(payload)
        for p in payload:
            s1 = (s1 + p) & 0xFF
            s2 = (s2 + s1) & 0xFF
        await self.put(0xA5)
        for _ in range(gap):
            await self.cycle(0, 0x5A, 0)
        await self.put(len(payload))
        for p in payload:
            await self.put(p)
            for _ in range(gap):
                await self.cycle(0, random.getrandbits(8), 0)
        await self.put(s1)
        await self.put(s2 ^ corrupt)


@cocotb.test()
async def reference(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for h in (dut.rst_n, dut.in_valid, dut.in_data, dut.clr_stats):
        h.value = 0
    b = Bench(dut)
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    await Timer(1, unit="ns")
    await b.idle(2)
    for payload, gap in (([0x01, 0xFF], 0), ([0x02, 0x00], 0), ([0x04], 0), ([0x05, 0x12, 0x34], 0),
                         ([0x02, 0xFF], 2), ([0x01, 0, 0, 0], 0), ([0x04], 0), ([0x01, 0x7F], 0), ([0x02, 0x80], 0),
                         ([0x05], 0), ([0x01, 0x80], 0), ([0x05], 0), ([0x01], 0)):
        await b.send(payload, 0, gap)
    await b.cycle(0, 0, 1)
    await b.send([0x02])
    await b.cycle(0, 0, 1)
    await b.send([0xFF] * 8)
    await b.send([0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77])
    await b.send([0x06])
    await b.send([0x03])
    for i in range(18):
        await b.send([random.getrandbits(8) for _ in range(1 + i % 8)], 1 << (i % 8))
    for byte in (0xA5, 1, 0x04, 0x00, 0x04 * 2 + 1):  # wrong first checksum byte
        await b.put(byte)
    for i in range(18):
        await b.put(0xA5)
        await b.put((0, 9, 0xFF)[i % 3])
    for i in range(17):
        await b.send([0x04, i])
    await b.cycle(0, 0, 1)
    await b.send([0x03, 0xEE])
    for g in GARBAGE:
        await b.put(g)
    for byte in (0xA5, 1, 0x04, 0x05):
        await b.put(byte)
    await b.cycle(1, 0x06, 1)
    for byte in (0xA5, 3, 0x01):  # mid-packet reset
        await b.put(byte)
    dut.rst_n.value = 0
    await Timer(1, unit="ns")
    b.model_reset()
    b.e_good = b.e_bad = b.e_len = 0
    b.check()
    await RisingEdge(dut.clk)
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    await b.idle(1)
    for _ in range(200):
        p = [random.randint(0, 6)] + [random.getrandbits(8) for _ in range(random.randint(1, 8) - 1)]
        await b.send(p, random.randint(1, 255) if random.randint(0, 3) == 0 else 0, random.randint(0, 1))
        if random.randint(0, 9) == 0:
            await b.put(random.getrandbits(8))
    await b.idle(3)
