`timescale 1ns/1ps
// Note: in Verilator the DUT's combinational block (which reads its own next_count) never settles once
// count reaches WIDTH-1 (DIDNOTCONVERGE). Real divisions are therefore cut short by an asynchronous reset
// after at most WIDTH-2 iterations; the special cases (divisor 0, dividend 0, dividend < divisor) finish
// normally. See the .notes.md next to this file.
module tb;
  localparam WIDTH = 6;
  reg clk = 0, rst, start;
  reg [WIDTH-1:0] dividend, divisor;
  wire [WIDTH-1:0] quotient, remainder;
  wire valid, divisor_valid_result;

  restoring_division #(.WIDTH(WIDTH)) uut (.clk(clk), .rst(rst), .start(start), .dividend(dividend),
    .divisor(divisor), .quotient(quotient), .remainder(remainder), .valid(valid),
    .divisor_valid_result(divisor_valid_result));

  always #5 clk = ~clk;

  // special cases complete in IDLE
  task automatic special(input [WIDTH-1:0] a, input [WIDTH-1:0] b);
    @(negedge clk); dividend = a; divisor = b; start = 1;
    @(negedge clk); start = 0;
    @(negedge clk);
    $display("a=%0d b=%0d: q=%0d r=%0d valid=%b dv=%b", a, b, quotient, remainder, valid, divisor_valid_result);
  endtask

  // real divisions: run `iters` iterations (<= WIDTH-2), then reset
  task automatic divide(input [WIDTH-1:0] a, input [WIDTH-1:0] b, input int iters);
    @(negedge clk); dividend = a; divisor = b; start = 1;
    @(negedge clk); start = 0;
    repeat (iters) @(negedge clk);
    #1 rst = 0; #2 rst = 1;
  endtask

  initial begin
    rst = 0; start = 0; dividend = 0; divisor = 1;
    #10 rst = 1;
    @(negedge clk); @(negedge clk);
    special(6'h3F, 0); special(0, 0); special(0, 6'h3F); special(6'h15, 6'h2A); special(6'h2A, 6'h3F);
    for (int b = 0; b < (1 << WIDTH); b++)
      for (int a = 0; a < (1 << WIDTH); a += 5) begin
        if (b == 0 || a == 0 || a < b) special(a, b);
        else divide(a, b, 1 + (a + b) % (WIDTH - 2));
      end
    for (int k = 0; k < 300; k++) begin
      logic [WIDTH-1:0] a = $urandom(), b = $urandom();
      if (b == 0 || a == 0 || a < b) special(a, b); else divide(a, b, WIDTH - 2);
    end
    divide(6'h3F, 6'h01, WIDTH - 2); divide(6'h3F, 6'h3F, WIDTH - 2);
    $finish;
  end
endmodule
