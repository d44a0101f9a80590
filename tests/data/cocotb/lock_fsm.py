# Reference cocotb testbench for lock_fsm (port of harness/suite/lock_fsm/ref_tb.sv): the key, a wrong
# word at each position, abandoned entries and the entry timeout, auto relock, lockout waited out and
# cleared by the administrator, the saturating open counter, a mid-run reset and random words, all
# checked against a cycle model.
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer

KEY = (0xC0DE, 0x5EED, 0xB0A7, 0x0F1E)
ADMIN = 0xAD51


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.reset_model()

    def reset_model(self):
        self.st = self.timer = self.fail = self.opens = 0
        self.alarm = 0

    def check(self):
        d = self.dut
        got = (int(d.state_o.value), int(d.unlocked.value), int(d.lockout.value), int(d.alarm.value),
               int(d.fail_cnt.value), int(d.opens.value))
        exp = (self.st, int(self.st == 4), int(self.st == 5), self.alarm, self.fail, self.opens)
        assert got == exp, f"got {got} expected {exp}"

    async def cycle(self, v, k, lr, ac):
        d = self.dut
        d.key_valid.value = v
        d.key_in.value = k
        d.lock_req.value = lr
        d.admin_clr.value = ac
        await RisingEdge(d.clk)
        await Timer(1, unit="ns")
        if self.st == 4:
            if lr:
                self.st, self.timer = 0, 0
            elif v:
                self.timer = 200
            elif self.timer == 0:
                self.st = 0
            else:
                self.timer -= 1
        elif self.st == 5:
            if ac and k == ADMIN:
                self.st = self.timer = self.fail = self.alarm = 0
            elif self.timer == 0:
                self.st, self.fail = 0, 0
            else:
                self.timer -= 1
        elif v:
            self.timer = 0
            if k == KEY[self.st]:
                if self.st == 3:
                    self.st, self.timer, self.fail = 4, 200, 0
                    self.opens = min(15, self.opens + 1)
                else:
                    self.st += 1
            elif self.fail == 2:
                self.st, self.timer, self.fail, self.alarm = 5, 600, 3, 1
            else:
                self.st = 0
                self.fail += 1
        elif self.st != 0:
            if self.timer == 23:
                self.st, self.timer = 0, 0
            else:
                self.timer += 1
        self.check()

    async def word(self, k):
        await self.cycle(1, k, 0, 0)

    async def idle(self, n):
        for _ in range(n):
            await self.cycle(0, random.getrandbits(16), 0, 0)

    async def unlock(self):
        for k in KEY:
            await self.word(k)
        assert int(self.dut.unlocked.value) == 1

    async def relock(self):
        await self.cycle(0, 0, 1, 0)


@cocotb.test()
async def reference(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for h in (dut.rst_n, dut.key_valid, dut.lock_req, dut.admin_clr, dut.key_in):
        h.value = 0
    b = Bench(dut)
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    await Timer(1, unit="ns")
    await b.idle(3)
    await b.unlock()
    await b.idle(5)
    await b.word(0xFFFF)
    await b.cycle(1, 0x0000, 1, 0)
    for pos in range(4):
        for j in range(pos):
            await b.word(KEY[j])
            await b.idle(j)
        await b.word(KEY[pos] ^ (1 << (pos * 4 + 1)))
        if pos == 1:
            await b.unlock()
            await b.relock()
    for pos in range(1, 4):
        for j in range(pos):
            await b.word(KEY[j])
        await b.idle(30)
    await b.word(KEY[0])
    await b.idle(23)
    await b.word(KEY[1])
    await b.word(KEY[2])
    await b.idle(10)
    await b.word(KEY[3])
    await b.idle(205)
    await b.cycle(1, ADMIN, 1, 1)
    await b.word(0x0000)
    await b.word(0xFFFF)
    await b.word(KEY[1])
    await b.idle(100)
    await b.cycle(0, ADMIN ^ 0x0100, 0, 1)
    await b.cycle(1, KEY[0], 1, 0)
    await b.idle(520)
    assert int(dut.alarm.value) == 1
    await b.idle(5)
    for k in KEY[1:]:
        await b.word(k)
    await b.idle(3)
    await b.cycle(0, ADMIN, 0, 1)
    await b.unlock()
    await b.relock()
    for i in range(16):
        await b.unlock()
        if i % 2:
            await b.relock()
        else:
            await b.idle(202)
    await b.word(KEY[0])
    await b.word(KEY[1])
    dut.rst_n.value = 0
    await Timer(1, unit="ns")
    b.reset_model()
    b.check()
    await RisingEdge(dut.clk)
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    for _ in range(400):
        r = random.randint(0, 9)
        if r < 5:
            await b.word(KEY[b.st if b.st < 4 else 0])
        elif r < 7:
            await b.word(random.getrandbits(16))
        elif r == 7:
            await b.cycle(0, ADMIN, random.getrandbits(1), random.getrandbits(1))
        else:
            await b.idle(random.randint(0, 30))
