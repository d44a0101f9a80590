"""The SystemVerilog track: prompts for each layout, answer parser, random-testbench renderer."""
