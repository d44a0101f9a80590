`timescale 1ns/1ps
module tb;
  logic clk = 0, reset;
  logic release_reset_o, gate_clk_o;
  logic [4:0] cnt_q;

  async_reset dut (.clk(clk), .reset(reset), .release_reset_o(release_reset_o),
                   .gate_clk_o(gate_clk_o), .cnt_q(cnt_q));

  always #5 clk = ~clk;

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
    reset = 1; repeat (2) @(posedge clk); #2 reset = 0;   // held two cycles (Reset Handling)
    reset_at(5'hF); reset_at(5'hE); reset_at(5'hD); reset_at(5'h8); reset_at(5'h7); reset_at(5'h1);
    repeat (40) @(posedge clk);
    // asynchronous pulse between clock edges
    #3 reset = 1; repeat (2) @(posedge clk); #1 reset = 0;
    repeat (40) @(posedge clk);
    $finish;
  end
endmodule
