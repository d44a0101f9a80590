`timescale 1ns/1ps
module tb_pseudoRandGenerator_ca;
  logic clock = 0, reset;
  logic [15:0] CA_seed;
  logic [15:0] CA_out;

  pseudoRandGenerator_ca dut (.clock(clock), .reset(reset), .CA_seed(CA_seed), .CA_out(CA_out));

  always #10 clock = ~clock;

  task automatic run_seed(input logic [15:0] s, input int cycles);
    @(negedge clock); CA_seed = s; reset = 1;
    @(negedge clock); reset = 0;
    repeat (cycles) begin @(posedge clock); #1 $display("seed=%h out=%h", s, CA_out); end
  endtask

  initial begin
    reset = 1; CA_seed = 16'hA5A5;
    #150 reset = 0;
    run_seed(16'hA5A5, 40);
    run_seed(16'h3C3C, 40);
    run_seed(16'hFFFF, 20);
    run_seed(16'h0000, 5);
    run_seed(16'h0001, 40);
    run_seed(16'h8000, 40);
    run_seed(16'h5555, 20);
    run_seed(16'hAAAA, 20);
    for (int i = 0; i < 16; i++) run_seed(16'h1 << i, 10);
    repeat (20) run_seed($urandom(), 30);
    $finish;
  end
endmodule
