"""The cocotb track: models write Python (cocotb 2.1) testbenches, scored like the SystemVerilog track.

Same designs, targets, coverage engine and trust rules. The differences are the testbench language and
the hierarchy: under cocotb the DUT is the HDL toplevel (cocotb's ``dut``), so a target instance
``u_fifo`` means the toplevel itself and ``u_fifo.u_rx`` its sub-instance ``u_rx`` (see docs/scoring.md).

Modules: ``build`` (one cached Verilator+VPI build per design), ``scorer`` (score a Python testbench),
``policy`` (the AST rules checked before anything runs), ``guard`` (the runtime guard installed inside
the simulator), ``prompts``/``parse`` (the model side), ``random_tb`` (the builtin/random baseline).
"""

from __future__ import annotations

TB_FILE = "test_dut.py"  # the file name the model writes and tracebacks show
TB_MODULE = "test_dut"
