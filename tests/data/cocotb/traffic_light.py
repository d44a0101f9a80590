# Reference cocotb testbench for traffic_ctrl (port of harness/suite/traffic_light/ref_tb.sv): idle NS
# green, EW car leaving early and staying (GREEN_MAX), pedestrian alone and with a car, a press lost in
# the last walk cycle, maintenance flashing from every state, a reset while flashing; safety checked.
import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge, Timer


class Bench:
    def __init__(self, dut):
        self.dut = dut

    async def tick(self, n=1):
        for _ in range(n):
            await RisingEdge(self.dut.clk)
            await Timer(1, unit="ns")
            self.safety()

    def safety(self):
        d = self.dut
        ns, ew = int(d.ns_light.value), int(d.ew_light.value)
        if int(d.rst_n.value):
            assert int(d.state_o.value) == 7 or ns == 0b100 or ew == 0b100, f"both roads open {ns:03b} {ew:03b}"
            assert not int(d.walk.value) or (ns == 0b100 and ew == 0b100)

    def state(self):
        return int(self.dut.state_o.value)

    async def wait_state(self, s, max_cycles):
        n = 0
        while self.state() != s:
            await self.tick()
            n += 1
            assert n <= max_cycles, f"state {s} not reached within {max_cycles} cycles (at {self.state()})"

    async def press(self):
        self.dut.ped_req.value = 1
        await self.tick()
        self.dut.ped_req.value = 0

    async def flash(self, n):
        self.dut.maint.value = 1
        await self.tick(n)
        assert self.state() == 7
        self.dut.maint.value = 0
        await self.wait_state(6, 3)


@cocotb.test()
async def reference(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for h in (dut.rst_n, dut.car_ew, dut.ped_req, dut.maint):
        h.value = 0
    b = Bench(dut)
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst_n.value = 1
    await Timer(1, unit="ns")
    await b.wait_state(0, 3)
    await b.tick(20)
    assert b.state() == 0
    dut.car_ew.value = 1  # a car on EW that leaves early
    await b.wait_state(4, 15)
    await b.tick(7)
    dut.car_ew.value = 0
    await b.wait_state(5, 2)
    await b.wait_state(6, 3)
    await b.wait_state(0, 3)
    dut.car_ew.value = 1  # a car that stays: EW green capped
    await b.wait_state(4, 16)
    await b.wait_state(5, 13)
    dut.car_ew.value = 0
    await b.wait_state(0, 8)
    await b.tick(2)  # pedestrian alone
    await b.press()
    assert int(dut.ped_waiting.value) == 1
    await b.wait_state(3, 16)
    assert int(dut.walk.value) == 1
    await b.wait_state(6, 5)
    await b.wait_state(0, 3)
    await b.press()  # pedestrian and car; a press in the last walk cycle is lost
    dut.car_ew.value = 1
    await b.wait_state(3, 16)
    await b.tick(3)
    await b.press()
    await b.wait_state(4, 2)
    assert int(dut.ped_waiting.value) == 0
    dut.car_ew.value = 0
    await b.wait_state(0, 12)
    await b.flash(5)  # maintenance from every state
    await b.wait_state(0, 3)
    await b.flash(4)
    dut.car_ew.value = 1
    await b.wait_state(1, 10)
    await b.flash(3)
    await b.wait_state(2, 10)
    await b.flash(2)
    await b.wait_state(4, 15)
    await b.flash(3)
    await b.wait_state(5, 30)
    await b.flash(2)
    dut.car_ew.value = 0
    await b.press()
    await b.wait_state(3, 20)
    await b.flash(3)
    await b.press()
    await b.wait_state(3, 20)
    await b.wait_state(0, 10)
    # Service code on ped_req (spec): a wrong pulse, a wrong gap, a 16-cycle pulse, then 4, 6, 9, 7.
    for high, low in ((5, 3), (4, 2), (16, 3), (4, 3), (6, 3), (9, 3), (7, 16)):
        dut.ped_req.value = 1
        await b.tick(high)
        dut.ped_req.value = 0
        await b.tick(low)
    assert int(dut.diag.value) == 1, "diag not set by the service code"
    dut.maint.value = 1  # reset while flashing
    await b.tick(3)
    dut.rst_n.value = 0
    await Timer(1, unit="ns")
    dut.rst_n.value = 1
    dut.maint.value = 0
    await b.tick(3)
