// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  logic clk = 0, reset;
  logic release_reset_o, gate_clk_o;
  logic [4:0] cnt_q;

  async_reset dut (.clk(clk), .reset(reset), .release_reset_o(release_reset_o),
                   .gate_clk_o(gate_clk_o), .cnt_q(cnt_q));

  always #5 clk = ~clk;

  // Model of the spec: reset (asynchronous, active high) loads 5'h1F; each rising clock edge out of reset
  // counts down until 0 and holds there; gate_clk_o = 0 < cnt_q < 5'hE, release_reset_o = cnt_q < 5'h8.
  logic [4:0] m_cnt;
  bit m_known = 0;
  always @(posedge clk or posedge reset) begin
    if (reset) begin m_cnt = 5'h1F; m_known = 1; end
    else if (m_known && m_cnt > 0) m_cnt = m_cnt - 1;
    #0.5;
    if (m_known && {cnt_q, gate_clk_o, release_reset_o} !== {m_cnt, m_cnt < 5'hE && m_cnt != 0, m_cnt < 5'h8})
      $fatal(1, "%0t: cnt_q %h gate %b release %b, expected count %h", $time, cnt_q, gate_clk_o,
             release_reset_o, m_cnt);
  end

  task automatic reset_at(input logic [4:0] v);
    wait (cnt_q == v); @(negedge clk);
    #2 reset = 1; repeat (2) @(posedge clk); #3 reset = 0;
    $display("%0t reset at %h", $time, v);
  endtask

  initial begin
    reset = 1; repeat (3) @(posedge clk); #2 reset = 0;
    // full countdown and hold at zero
    repeat (40) @(posedge clk);
    // resets at interesting counts
    reset = 1; #7 reset = 0;
    reset_at(5'hF); reset_at(5'hE); reset_at(5'hD); reset_at(5'h8); reset_at(5'h7); reset_at(5'h1);
    repeat (40) @(posedge clk);
    // asynchronous pulse between clock edges
    #3 reset = 1; #1 reset = 0;
    repeat (40) @(posedge clk);
    $finish;
  end
endmodule
