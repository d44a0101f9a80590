// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  localparam NUM_INPUT = 2, PIPE_DEPTH = 1;
  logic clk = 0, srst, clr, clk_en;
  logic [NUM_INPUT-1:0] inp;
  logic out;

  sync_muller_c_element #(.NUM_INPUT(NUM_INPUT), .PIPE_DEPTH(PIPE_DEPTH)) sync_muller_c_element_inst (
    .clk(clk), .srst(srst), .clr(clr), .clk_en(clk_en), .inp(inp), .out(out));

  always #5 clk = ~clk;

  // Model of the spec: a PIPE_DEPTH-stage input pipeline and the C-element output on its last stage (1 when
  // every input there is 1, 0 when every one is 0, else held); srst and clr clear both, clk_en gates both.
  // Inputs change 1 ns after a rising edge: the model reads them at the edge and compares 0.5 ns after it.
  logic [NUM_INPUT-1:0] m_pipe [PIPE_DEPTH];
  logic m_out = 0;
  bit m_known = 0;
  always @(posedge clk) begin
    automatic logic [NUM_INPUT-1:0] last = m_pipe[PIPE_DEPTH-1];
    if (srst || clr) begin
      foreach (m_pipe[k]) m_pipe[k] = '0;
      m_out = 0; m_known = 1;
    end else if (clk_en) begin
      if (&last) m_out = 1;
      else if (!(|last)) m_out = 0;
      for (int k = PIPE_DEPTH - 1; k > 0; k--) m_pipe[k] = m_pipe[k-1];
      m_pipe[0] = inp;
    end
    #0.5;
    if (m_known && out !== m_out) $fatal(1, "%0t: out %b, expected %b", $time, out, m_out);
  end

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
