`timescale 1ns/1ps
module tb_hebb_gates;
  logic clk = 0, rst, start;
  logic [1:0] target_select, gate_select;
  logic signed [3:0] a, b;
  logic signed [3:0] w1, w2, bias;
  logic [3:0] present_state, next_state;

  hebb_gates uut (.clk(clk), .rst(rst), .start(start), .target_select(target_select), .a(a), .b(b),
    .gate_select(gate_select), .w1(w1), .w2(w2), .bias(bias), .present_state(present_state),
    .next_state(next_state));

  always #5 clk = ~clk;

  // one training run: start, then present the four bipolar input pairs as the FSM captures them
  task automatic train(input [1:0] gs, input [1:0] ts, input bit random_inputs = 0);
    logic signed [3:0] va[4] = '{4'sd1, 4'sd1, -4'sd1, -4'sd1};
    logic signed [3:0] vb[4] = '{4'sd1, -4'sd1, 4'sd1, -4'sd1};
    @(negedge clk); gate_select = gs; target_select = ts; start = 1;
    for (int n = 0; n < 4; n++) begin
      a = random_inputs ? $urandom() : va[n]; b = random_inputs ? $urandom() : vb[n];
      repeat (6) @(negedge clk);
      start = 0;
    end
    repeat (12) @(negedge clk);
    $display("gate=%0d tgt=%0d w1=%0d w2=%0d bias=%0d", gs, ts, w1, w2, bias);
  endtask

  initial begin
    rst = 0; start = 0; a = 0; b = 0; gate_select = 0; target_select = 0;
    repeat (2) @(negedge clk); rst = 1;
    for (int g = 0; g < 4; g++)
      for (int t = 0; t < 4; t++) train(g, t);
    // non-bipolar inputs
    for (int k = 0; k < 16; k++) train($urandom(), $urandom(), 1);
    // change selectors in the middle of a run
    @(negedge clk); start = 1; a = 1; b = -1; @(negedge clk); start = 0;
    repeat (4) begin @(negedge clk); gate_select = $urandom(); target_select = $urandom(); end
    repeat (40) @(negedge clk);
    // asynchronous reset mid-training
    @(negedge clk); start = 1; @(negedge clk); start = 0; repeat (7) @(negedge clk);
    #2 rst = 0; #4 rst = 1;
    train(2'b01, 2'b10);
    $finish;
  end
endmodule
