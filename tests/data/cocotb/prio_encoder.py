# Reference cocotb testbench for prio_enc (port of harness/suite/prio_encoder/ref_tb.sv): walking
# ones/zeros, all-set, masks and random vectors, checked against a behavioural model.
import random

import cocotb
from cocotb.triggers import Timer


async def apply(dut, r, m, d):
    dut.req.value = r
    dut.mask.value = m
    dut.msb_first.value = d
    await Timer(1, unit="ns")
    act = r & ~m & 0xFFFF
    bits = [i for i in range(16) if act >> i & 1]
    e_idx = (bits[-1] if d else bits[0]) if bits else 0
    assert int(dut.valid.value) == (act != 0)
    assert int(dut.count.value) == len(bits)
    assert int(dut.multi.value) == (len(bits) > 1)
    assert int(dut.idx.value) == e_idx
    assert int(dut.grant.value) == ((1 << e_idx) if act else 0)


@cocotb.test()
async def reference(dut):
    for d in range(2):
        await apply(dut, 0x0000, 0x0000, d)
        await apply(dut, 0xFFFF, 0x0000, d)
        await apply(dut, 0xFFFF, 0xFFFF, d)
        for i in range(16):
            await apply(dut, 1 << i, 0, d)
            await apply(dut, ~(1 << i) & 0xFFFF, 0, d)
            await apply(dut, 0xFFFF, 1 << i, d)
            await apply(dut, 0xFFFF, ~(1 << i) & 0xFFFF, d)
    for _ in range(500):
        await apply(dut, random.getrandbits(16), random.getrandbits(16) & random.getrandbits(16),
                    random.getrandbits(1))
