// ECov reference testbench for Prob063_review2015_shiftcount (original work). The spec says the full
// system never uses shift_ena and count_ena together, so at most one of them is 1 at any rising edge
// of clk. Inputs change at the falling edge. The register is loaded by shifting (MSB first), counted
// down through 0 and its wrap to 15, held, then driven by a deterministic LFSR that picks shift (with a
// data bit), count or hold each cycle.
`timescale 1ns/1ps
module tb;
  logic clk = 1'b0;
  logic shift_ena = 1'b0, count_ena = 1'b0, data = 1'b0;
  wire [3:0] q;
  logic [15:0] lfsr = 16'hACE1;

  TopModule dut (.clk(clk), .shift_ena(shift_ena), .count_ena(count_ena), .data(data), .q(q));

  always #5 clk = ~clk;

  task automatic step(input logic sh, input logic cn, input logic din);
    @(negedge clk);
    shift_ena = sh;
    count_ena = cn;
    data = din;
  endtask

  task automatic load(input logic [3:0] v);  // four shifts, most-significant bit first
    for (int i = 3; i >= 0; i--) step(1'b1, 1'b0, v[i]);
  endtask

  initial begin
    step(1'b0, 1'b0, 1'b0);
    load(4'b1011);
    step(1'b0, 1'b0, 1'b1);                 // hold
    load(4'b0100);
    load(4'b0011);
    repeat (20) step(1'b0, 1'b1, 1'b0);     // 3, 2, 1, 0, 15, 14, ...: through zero and the wrap
    step(1'b0, 1'b0, 1'b0);
    load(4'b1111);
    repeat (3) step(1'b0, 1'b0, 1'b0);
    load(4'b0000);
    repeat (2) step(1'b0, 1'b1, 1'b1);
    for (int i = 0; i < 300; i++) begin
      lfsr = {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
      case (lfsr[1:0])
        2'd0: step(1'b0, 1'b0, lfsr[2]);
        2'd1: step(1'b1, 1'b0, lfsr[2]);
        default: step(1'b0, 1'b1, lfsr[2]);
      endcase
    end
    step(1'b0, 1'b0, 1'b0);
    @(negedge clk);
    $finish;
  end
endmodule
