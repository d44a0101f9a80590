`timescale 1ns/1ps
// Note: in Verilator the DUT's combinational block (which reads its own next_count) never settles once
// count reaches WIDTH-1 (DIDNOTCONVERGE). Every division is therefore cut short by an asynchronous reset
// after at most WIDTH-2 iterations; see the .notes.md next to this file.
module tb;
  localparam WIDTH = 6;
  reg clk = 0, rst, start;
  reg [WIDTH-1:0] dividend, divisor;
  wire [WIDTH-1:0] quotient, remainder;
  wire valid;

  restoring_division #(.WIDTH(WIDTH)) uut (.clk(clk), .rst(rst), .start(start), .dividend(dividend),
    .divisor(divisor), .quotient(quotient), .remainder(remainder), .valid(valid));

  always #5 clk = ~clk;

  // start a division, let it run `iters` iterations (<= WIDTH-2), then reset
  task automatic divide(input [WIDTH-1:0] a, input [WIDTH-1:0] b, input int iters);
    @(negedge clk); dividend = a; divisor = b; start = 1;
    @(negedge clk); start = 0;
    repeat (iters) @(negedge clk);
    $display("a=%0d b=%0d after %0d: acc=%h_%h", a, b, iters, remainder, quotient);
    #1 rst = 0; #2 rst = 1;
  endtask

  initial begin
    rst = 0; start = 0; dividend = 0; divisor = 1;
    #10 rst = 1;
    @(negedge clk); @(negedge clk);             // idle without start
    for (int b = 0; b < (1 << WIDTH); b++)
      for (int a = 0; a < (1 << WIDTH); a += 3) divide(a, b, 1 + (a + b) % (WIDTH - 2));
    for (int k = 0; k < 300; k++) divide($urandom(), $urandom(), WIDTH - 2);
    divide(6'h3F, 6'h01, WIDTH - 2); divide(6'h3F, 6'h3F, WIDTH - 2); divide(6'h20, 6'h00, WIDTH - 2);
    $finish;
  end
endmodule
