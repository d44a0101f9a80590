# Reference cocotb testbench for i2c_target (port of harness/suite/i2c_target/ref_tb.sv): register writes
# and reads with pointer wrap, NACKs (pointer out of range, write to the ID register, controller NACK on
# read), other addresses, repeated START, STOP inside a byte, START during a read, random transactions
# and a mid-transaction reset, checked against a register model. SDA is open drain: the testbench drives
# sda = its own line AND NOT sda_oe.
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer

H = 6  # clk cycles per SCL half period
ADDR = 0x3A


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.scl = 1
        self.sda_m = 1
        self.reset_model()

    def reset_model(self):
        self.regs = [0x00, 0x00, 0x00, 0xC4]
        self.ptr = 0
        self.err = 0

    def sda(self):
        return self.sda_m & (1 - int(self.dut.sda_oe.value))

    def drive(self):
        self.dut.scl.value = self.scl
        self.dut.sda.value = self.sda()

    async def wait_clk(self, n):
        for _ in range(n):
            await RisingEdge(self.dut.clk)
            await Timer(1, unit="ns")
            self.drive()

    def set(self, scl=None, sda=None):
        if scl is not None:
            self.scl = scl
        if sda is not None:
            self.sda_m = sda
        self.drive()

    def check_regs(self):
        d = self.dut
        got = (int(d.reg0.value), int(d.reg1.value), int(d.reg2.value), int(d.err.value))
        assert got == (*self.regs[:3], self.err), f"regs {got} model {self.regs} {self.err}"

    async def start_cond(self):
        if not self.scl:
            await self.wait_clk(2)
            self.set(sda=1)
            await self.wait_clk(H)
            self.set(scl=1)
            await self.wait_clk(H)
        self.set(sda=0)
        await self.wait_clk(H)
        self.set(scl=0)

    async def stop_cond(self):
        await self.wait_clk(2)
        self.set(sda=0)
        await self.wait_clk(H)
        self.set(scl=1)
        await self.wait_clk(H)
        self.set(sda=1)
        await self.wait_clk(H)
        assert int(self.dut.busy.value) == 0, "busy after STOP"

    async def write_bit(self, b):
        await self.wait_clk(2)
        self.set(sda=b)
        await self.wait_clk(H)
        self.set(scl=1)
        await self.wait_clk(H)
        self.set(scl=0)

    async def read_bit(self):
        await self.wait_clk(2)
        self.set(sda=1)
        await self.wait_clk(H)
        self.set(scl=1)
        await self.wait_clk(H // 2)
        b = self.sda()
        await self.wait_clk(H - H // 2)
        self.set(scl=0)
        return b

    async def write_byte(self, byte):
        for i in range(7, -1, -1):
            await self.write_bit(byte >> i & 1)
        return not await self.read_bit()

    async def read_byte(self, ack_it):
        v = 0
        for _ in range(8):
            v = v << 1 | await self.read_bit()
        await self.write_bit(0 if ack_it else 1)
        return v

    async def wr(self, p, data, do_stop=True):
        await self.start_cond()
        assert await self.write_byte(ADDR << 1) == 1, "address (write)"
        assert await self.write_byte(p) == (p < 4), "pointer"
        if p < 4:
            self.ptr = p & 3
            for byte in data:
                assert await self.write_byte(byte) == (self.ptr != 3), "data"
                if self.ptr == 3:
                    self.err = 1
                    break
                self.regs[self.ptr] = byte
                self.ptr = (self.ptr + 1) & 3
        else:
            self.err = 1
        if do_stop:
            await self.stop_cond()
        self.check_regs()

    async def rd(self, n):
        await self.start_cond()
        assert await self.write_byte(ADDR << 1 | 1) == 1, "address (read)"
        for i in range(n):
            v = await self.read_byte(i < n - 1)
            assert v == self.regs[self.ptr], f"read reg {self.ptr}: {v:02x}"
            self.ptr = (self.ptr + 1) & 3
        await self.stop_cond()


@cocotb.test()
async def reference(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst_n.value = 0
    b = Bench(dut)
    dut.scl.value = 1
    dut.sda.value = 1
    await b.wait_clk(3)
    dut.rst_n.value = 1
    await b.wait_clk(4)
    await b.wr(0, [0xFF, 0x00, 0xA5])
    await b.wr(1, [0xFF, 0xFF])  # wraps to the ID register: NACK, err
    await b.rd(4)
    await b.wr(0, [0x00, 0xFF])
    await b.wr(2, [0x00])
    await b.wr(0, [])
    await b.rd(4)
    await b.rd(5)
    await b.wr(4, [0x12])  # pointer out of range
    await b.wr(255, [])
    await b.wr(3, [0x55])  # write to the ID register
    await b.start_cond()  # another address, ignored until the next START
    assert await b.write_byte((ADDR ^ 0x01) << 1) == 0
    assert await b.write_byte(0x00) == 0
    await b.start_cond()
    assert await b.write_byte((ADDR ^ 0x40) << 1 | 1) == 0
    await b.start_cond()
    assert await b.write_byte(ADDR << 1) == 1
    await b.write_byte(1)
    b.ptr = 1
    await b.start_cond()  # repeated START into a read
    await b.write_byte(ADDR << 1 | 1)
    v = await b.read_byte(True)
    b.ptr += 1
    assert v == b.regs[1]
    await b.read_byte(False)
    b.ptr += 1
    await b.stop_cond()
    await b.start_cond()  # STOP inside a byte
    await b.write_byte(ADDR << 1)
    await b.write_byte(1)
    b.ptr = 1
    await b.write_bit(1)
    await b.write_bit(0)
    await b.stop_cond()
    b.check_regs()
    await b.start_cond()  # a START during a read
    await b.write_byte(ADDR << 1 | 1)
    await b.read_bit()
    await b.read_bit()
    await b.start_cond()
    await b.write_byte(ADDR << 1)
    await b.write_byte(0)
    await b.write_byte(0x3C)
    b.regs[0], b.ptr = 0x3C, 1
    await b.stop_cond()
    b.check_regs()
    for _ in range(40):
        data = [random.getrandbits(8) for _ in range(random.randint(0, 3))]
        if random.getrandbits(1):
            await b.wr(random.randint(0, 4), data)
        else:
            await b.wr(random.randint(0, 3), [])
            await b.rd(random.randint(1, 4))
    await b.start_cond()  # mid-transaction reset
    await b.write_byte(ADDR << 1)
    await b.write_bit(0)
    dut.rst_n.value = 0
    await b.wait_clk(2)
    b.reset_model()
    b.check_regs()
    dut.rst_n.value = 1
    b.set(scl=1, sda=1)
    await b.wait_clk(H)
    await b.wr(2, [0x81])
    await b.rd(2)
