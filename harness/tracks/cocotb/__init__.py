"""The cocotb track: Python (cocotb 2.1) testbenches: prompts, answer parser, random-testbench renderer."""
