# Reference cocotb testbench for frame_crc (port of harness/suite/frame_crc/ref_tb.sv): every frame type,
# every error kind, aborts, gaps between bits, counter saturation, clearing, bit counter saturation and
# a mid-run reset, checked against a frame-level model.
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer


def crc8(data):
    c = 0xFF
    for byte in data:
        for b in range(7, -1, -1):
            c = ((c << 1) & 0xFF) ^ (0x07 if ((c >> 7) ^ (byte >> b)) & 1 else 0)
    return c


def sat(v):
    return v if v == 15 else v + 1


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.reset_model()

    def reset_model(self):
        self.code = self.ok = self.err = self.data = self.ctrl = self.type_err = 0
        self.in_frame = False

    async def tick(self, s, e, v, d, c=0):
        dut = self.dut
        dut.sof.value, dut.eof.value, dut.bit_valid.value, dut.din.value, dut.clr.value = s, e, v, d, c
        await RisingEdge(dut.clk)
        await Timer(1, unit="ns")
        dut.sof.value, dut.eof.value, dut.bit_valid.value, dut.clr.value = 0, 0, 0, 0

    def expect(self, ok, err, pong):
        d = self.dut
        got = (int(d.frame_ok.value), int(d.frame_err.value), int(d.pong.value), int(d.err_code.value),
               int(d.ok_cnt.value), int(d.err_cnt.value), int(d.last_data.value), int(d.ctrl_reg.value),
               int(d.type_err.value))
        exp = (ok, err, pong, self.code, self.ok, self.err, self.data, self.ctrl, self.type_err)
        assert got == exp, f"got {got} expected {exp}"

    async def frame(self, data, extra=0, gap=0):
        nbits = len(data) * 8 + extra
        if self.in_frame:
            self.code, self.err = 5, sat(self.err)
            await self.tick(1, 0, 0, 0)
            self.expect(0, 1, 0)
        else:
            await self.tick(1, 0, 0, 0)
        for byte in data:
            for b in range(7, -1, -1):
                await self.tick(0, 0, 1, byte >> b & 1)
                for _ in range(gap):
                    await self.tick(0, 0, 0, random.getrandbits(1))
        for _ in range(extra):
            await self.tick(0, 0, 1, 1)
        await self.tick(0, 1, random.getrandbits(1), random.getrandbits(1))  # a bit on eof is ignored
        self.in_frame = False
        nbits = min(nbits, 255)
        hdr = data[0] if data else 0
        pay0 = data[1] if len(data) > 1 else 0
        if nbits % 8 or nbits < 16 or (hdr & 0x3F) != nbits // 8 - 2 or crc8(data) != 0:
            self.err = sat(self.err)
            self.code = 1 if nbits % 8 else 2 if nbits < 16 else 3 if (hdr & 0x3F) != nbits // 8 - 2 else 4
            self.expect(0, 1, 0)
        else:
            self.ok, self.code = sat(self.ok), 0
            typ = hdr >> 6
            if typ == 0:
                if hdr & 0x3F:
                    self.data = pay0
            elif typ == 1:
                if hdr & 0x3F == 1:
                    self.ctrl = pay0
                else:
                    self.type_err = 1
            elif typ == 3:
                self.type_err = 1
            self.expect(1, 0, int(typ == 2))

    async def good(self, typ, payload, corrupt=0, gap=0):
        body = [(typ << 6) | len(payload), *payload]
        await self.frame(body + [crc8(body) ^ corrupt], 0, gap)


@cocotb.test()
async def reference(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for h in (dut.rst_n, dut.sof, dut.eof, dut.bit_valid, dut.din, dut.clr):
        h.value = 0
    b = Bench(dut)
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    await Timer(1, unit="ns")
    await b.tick(0, 1, 1, 1)  # eof and bits outside a frame are ignored
    await b.tick(0, 0, 1, 0)
    b.expect(0, 0, 0)
    await b.good(0, [0xFF])
    await b.good(0, [0x00, 0x12])
    await b.good(0, [])
    await b.good(1, [0xFF])
    await b.good(1, [0x00])
    await b.good(1, [0x01, 0x02])
    await b.good(2, [], 0, 1)
    await b.good(2, [0x55, 0xAA, 0x0F])
    await b.tick(0, 0, 0, 0, 1)
    b.ok = b.err = b.type_err = 0
    b.expect(0, 0, 0)
    await b.good(3, [0x77])
    await b.good(0, [random.getrandbits(8) for _ in range(15)])
    await b.good(0, [0x5A], 0x01)
    await b.good(2, [0x01, 0x02], 0x80)
    await b.frame([0x02, 0x11, 0x22])
    await b.frame([0x3F, 0x11, 0x22])
    await b.frame([0x40])
    await b.frame([])
    await b.frame([0x00, 0x00], 3)
    await b.frame([0x81], 5)
    await b.frame([0xFF] * 33)
    await b.tick(1, 0, 0, 0)  # abort: sof inside a frame
    await b.tick(0, 0, 1, 1)
    await b.tick(0, 0, 1, 0)
    b.in_frame = True
    await b.good(1, [0x3C])
    await b.tick(1, 0, 0, 0)
    b.in_frame = True
    await b.good(0, [0xC3])
    for i in range(17):
        await b.good(0, [i])
    for i in range(17):
        await b.frame([i])
    await b.tick(1, 0, 0, 0)
    await b.tick(0, 0, 1, 0)
    b.in_frame = True
    await b.frame([0x00])
    await b.tick(1, 0, 0, 0)
    for bit in range(7, -1, -1):
        await b.tick(0, 0, 1, bit & 1)
    await b.tick(0, 0, 1, 1, 1)  # clr while in a frame
    b.ok = b.err = b.type_err = 0
    await b.tick(0, 1, 0, 0)
    b.err, b.code = 1, 1
    b.expect(0, 1, 0)
    for _ in range(150):
        p = [random.getrandbits(8) for _ in range(random.randint(0, 6))]
        kind = random.randint(0, 5)
        if kind == 0:
            await b.good(random.getrandbits(2), p, random.randint(1, 255))
        elif kind == 1:
            await b.frame(p, random.randint(0, 9))
        else:
            await b.good(random.getrandbits(2), p, 0, random.randint(0, 1))
    await b.tick(1, 0, 0, 0)  # mid-frame reset
    await b.tick(0, 0, 1, 1)
    dut.rst_n.value = 0
    await Timer(1, unit="ns")
    b.reset_model()
    b.expect(0, 0, 0)
    await RisingEdge(dut.clk)
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    await b.good(1, [0x99])
