`timescale 1ns/1ps
module tb;
  localparam DATA_WIDTH = 8;
  reg i_clk = 0, i_rst_n, i_start, i_enable, i_mode, i_clear;
  reg [DATA_WIDTH-1:0] i_operand_a, i_operand_b;
  wire [DATA_WIDTH-1:0] o_resultant_sum;
  wire o_overflow, o_ready;
  wire [1:0] o_status;

  signedadder #(.DATA_WIDTH(DATA_WIDTH)) dut (.i_clk(i_clk), .i_rst_n(i_rst_n), .i_start(i_start),
    .i_enable(i_enable), .i_mode(i_mode), .i_clear(i_clear), .i_operand_a(i_operand_a),
    .i_operand_b(i_operand_b), .o_resultant_sum(o_resultant_sum), .o_overflow(o_overflow),
    .o_ready(o_ready), .o_status(o_status));

  always #5 i_clk = ~i_clk;

  // full operation: start, load, compute, output
  task automatic op(input [DATA_WIDTH-1:0] a, input [DATA_WIDTH-1:0] b, input bit mode);
    @(negedge i_clk); i_operand_a = a; i_operand_b = b; i_mode = mode; i_enable = 1; i_start = 1;
    @(negedge i_clk); i_start = 0;
    repeat (3) @(negedge i_clk);
    $display("%0d %s %0d = %0d ovf=%b", $signed(a), mode ? "-" : "+", $signed(b), $signed(o_resultant_sum), o_overflow);
  endtask

  // drop enable (or assert clear) after `after` cycles of an operation
  task automatic abort(input int after, input bit use_clear);
    @(negedge i_clk); i_operand_a = $urandom(); i_operand_b = $urandom(); i_enable = 1; i_start = 1;
    @(negedge i_clk); i_start = 0;
    repeat (after) @(negedge i_clk);
    if (use_clear) i_clear = 1; else i_enable = 0;
    @(negedge i_clk); i_clear = 0; i_enable = 1;
    repeat (2) @(negedge i_clk);
  endtask

  initial begin
    i_rst_n = 0; i_start = 0; i_enable = 0; i_mode = 0; i_clear = 0; i_operand_a = 0; i_operand_b = 0;
    repeat (2) @(negedge i_clk); i_rst_n = 1;
    // start without enable
    @(negedge i_clk); i_start = 1; i_enable = 0; @(negedge i_clk); i_start = 0; repeat (2) @(negedge i_clk);
    // overflow corners for add and subtract
    op(8'h7F, 8'h01, 0); op(8'h80, 8'hFF, 0); op(8'h80, 8'h80, 0); op(8'h7F, 8'h7F, 0);
    op(8'h80, 8'h01, 1); op(8'h7F, 8'hFF, 1); op(8'h00, 8'h80, 1); op(8'hFF, 8'h7F, 1);
    op(8'h00, 8'h00, 0); op(8'hFF, 8'hFF, 0); op(8'h55, 8'hAA, 0); op(8'hAA, 8'h55, 1);
    op(8'h00, 8'hFF, 1); op(8'hFF, 8'h00, 1);
    // random
    repeat (300) op($urandom(), $urandom(), $urandom());
    // enable dropped / clear asserted in LOAD, COMPUTE, OUTPUT
    for (int s = 0; s < 3; s++) begin abort(s, 0); abort(s, 1); end
    // clear while idle with a result present
    op(8'h12, 8'h34, 0); i_clear = 1; @(negedge i_clk); i_clear = 0;
    // asynchronous reset mid-operation
    @(negedge i_clk); i_start = 1; i_enable = 1; @(negedge i_clk); i_start = 0;
    #2 i_rst_n = 0; #4 i_rst_n = 1;
    op(8'h01, 8'h02, 0);
    $finish;
  end
endmodule
