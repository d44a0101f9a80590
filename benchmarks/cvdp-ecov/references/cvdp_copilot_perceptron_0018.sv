`timescale 1ns/1ps
module tb_perceptron_gates;
  logic clk = 0, rst_n, learning_rate, target_select;
  logic signed [3:0] x1, x2, threshold;
  logic [1:0] gate_select;
  logic signed [3:0] percep_w1, percep_w2, percep_bias, y_in, y;
  logic signed [3:0] prev_percep_wt_1, prev_percep_wt_2, prev_percep_bias;
  logic [3:0] present_addr;
  logic stop;
  logic [2:0] input_index;

  perceptron_gates uut (.clk(clk), .rst_n(rst_n), .x1(x1), .x2(x2), .learning_rate(learning_rate),
    .threshold(threshold), .gate_select(gate_select), .target_select(target_select),
    .percep_w1(percep_w1), .percep_w2(percep_w2), .percep_bias(percep_bias), .present_addr(present_addr),
    .stop(stop), .input_index(input_index), .y_in(y_in), .y(y), .prev_percep_wt_1(prev_percep_wt_1),
    .prev_percep_wt_2(prev_percep_wt_2), .prev_percep_bias(prev_percep_bias));

  always #5 clk = ~clk;

  // present the four bipolar input pairs in order, one per microcode pass (6 cycles)
  task automatic train(input [1:0] gs, input bit ts, input bit lr, input logic signed [3:0] th, input int epochs);
    logic signed [3:0] v1[4] = '{4'sd1, 4'sd1, -4'sd1, -4'sd1};
    logic signed [3:0] v2[4] = '{4'sd1, -4'sd1, 4'sd1, -4'sd1};
    @(negedge clk); rst_n = 0; gate_select = gs; target_select = ts; learning_rate = lr; threshold = th;
    @(negedge clk); rst_n = 1;
    for (int e = 0; e < epochs; e++)
      for (int n = 0; n < 4; n++) begin
        x1 = v1[n]; x2 = v2[n];
        repeat (6) @(negedge clk);
      end
    $display("gate=%0d ts=%0d w1=%0d w2=%0d b=%0d stop=%b", gs, ts, percep_w1, percep_w2, percep_bias, stop);
  endtask

  initial begin
    rst_n = 0; x1 = 1; x2 = 1; learning_rate = 1; threshold = 0; gate_select = 0; target_select = 0;
    repeat (2) @(negedge clk); rst_n = 1;
    for (int g = 0; g < 4; g++)
      for (int t = 0; t < 2; t++) begin
        train(g, t, 1, 4'sd0, 4);
        train(g, t, 1, 4'sd1, 3);
        train(g, t, 0, 4'sd0, 2);
      end
    // other thresholds and random (non-bipolar) inputs
    for (int k = 0; k < 20; k++) begin
      @(negedge clk); rst_n = 0; @(negedge clk); rst_n = 1;
      gate_select = $urandom(); target_select = $urandom(); learning_rate = $urandom(); threshold = $urandom();
      repeat (60) begin @(negedge clk); x1 = $urandom(); x2 = $urandom(); end
    end
    $finish;
  end
endmodule
