`timescale 1ns/1ps
module tb;
  localparam NUM_INPUT = 2, PIPE_DEPTH = 1;
  logic clk = 0, srst, clr, clk_en;
  logic [NUM_INPUT-1:0] inp;
  logic out;

  sync_muller_c_element #(.NUM_INPUT(NUM_INPUT), .PIPE_DEPTH(PIPE_DEPTH)) sync_muller_c_element_inst (
    .clk(clk), .srst(srst), .clr(clr), .clk_en(clk_en), .inp(inp), .out(out));

  always #5 clk = ~clk;

  task automatic cyc(input logic [NUM_INPUT-1:0] v, input logic en = 1, input logic c = 0, input logic r = 0);
    inp = v; clk_en = en; clr = c; srst = r;
    @(posedge clk); #1;
  endtask

  initial begin
    srst = 1; clr = 0; clk_en = 0; inp = 0;
    repeat (3) @(posedge clk); #1;
    srst = 0;
    // all ones, hold (mixed), all zeros, hold (mixed)
    cyc('1); cyc('1); cyc('1);
    cyc(2'b01); cyc(2'b10); cyc(2'b01);
    cyc('0); cyc('0); cyc('0);
    cyc(2'b10); cyc(2'b01); cyc(2'b10);
    cyc('1); cyc('1); cyc('1);
    // clock enable low: pipeline and output freeze
    cyc('0, 0); cyc('0, 0); cyc('0, 0);
    cyc('0); cyc('0); cyc('0);
    cyc('1, 0); cyc('1, 0);
    cyc('1); cyc('1); cyc('1);
    // clear while output high
    cyc('1, 1, 1); cyc('1); cyc('1); cyc('1);
    cyc('1, 0, 1);
    // reset while output high
    cyc('1); cyc('1); cyc('1, 1, 0, 1); cyc('1);
    // random
    for (int i = 0; i < 200; i++)
      cyc($urandom(), ($urandom() % 5) != 0, ($urandom() % 20) == 0, ($urandom() % 40) == 0);
    cyc('0); cyc('0);
    $finish;
  end
endmodule
