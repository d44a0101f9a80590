// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
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

  // Model of the spec's four-state machine, one state per cycle while i_enable holds (dropping it returns to
  // IDLE): IDLE -(i_enable && i_start)-> LOAD (operands latched) -> COMPUTE (a + b, or a - b with i_mode;
  // signed overflow when the operands' signs make the result's impossible) -> OUTPUT (result, overflow and
  // o_ready out) -> IDLE, which drops o_ready and o_overflow; i_clear clears the result and returns to IDLE;
  // o_status is the state. i_rst_n (asynchronous) clears all. Inputs change on falling edges.
  logic [1:0] m_st = 0;
  logic [DATA_WIDTH-1:0] m_a = 0, m_b = 0, m_res = 0, m_sum = 0;
  logic m_ovf_next = 0, m_ovf = 0, m_ready = 0;
  task automatic m_reset();
    m_st = 0; m_a = 0; m_b = 0; m_sum = 0; m_ovf = 0; m_ready = 0;
  endtask
  always @(negedge i_rst_n) m_reset();
  initial #0.1 if (!i_rst_n) m_reset();  // no falling edge is seen at time 0
  always @(posedge i_clk) if (i_rst_n) begin
    if (i_clear) begin m_sum = 0; m_st = 0; end
    else case (m_st)
      0: begin m_ready = 0; m_ovf = 0; if (i_enable && i_start) m_st = 1; end
      1: if (i_enable) begin m_a = i_operand_a; m_b = i_operand_b; m_st = 2; end else m_st = 0;
      2: if (i_enable) begin
           m_res = i_mode ? m_a - m_b : m_a + m_b;
           m_ovf_next = i_mode ? (m_a[DATA_WIDTH-1] != m_b[DATA_WIDTH-1] && m_res[DATA_WIDTH-1] != m_a[DATA_WIDTH-1])
                               : (m_a[DATA_WIDTH-1] == m_b[DATA_WIDTH-1] && m_res[DATA_WIDTH-1] != m_a[DATA_WIDTH-1]);
           m_st = 3;
         end else m_st = 0;
      3: begin if (i_enable) begin m_sum = m_res; m_ovf = m_ovf_next; m_ready = 1; end m_st = 0; end
    endcase
    #0.5;
    if ({o_status, o_resultant_sum, o_overflow, o_ready} !== {m_st, m_sum, m_ovf, m_ready})
      $fatal(1, "%0t: status %0d sum %h ovf %b ready %b, expected %0d %h %b %b", $time, o_status, o_resultant_sum,
             o_overflow, o_ready, m_st, m_sum, m_ovf, m_ready);
  end

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
