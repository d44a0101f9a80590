"""SystemVerilog text helpers shared by every layer above: comments, module names, the top, ports."""
