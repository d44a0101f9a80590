`timescale 1ns/1ps
module tb_token_ring_fsm;
  logic clk = 0, rst, has_data_to_send;
  logic [3:0] data_in;
  logic [3:0] data_out, token_received, token;

  token_ring_fsm uut (.clk(clk), .rst(rst), .data_in(data_in), .data_out(data_out),
    .has_data_to_send(has_data_to_send), .token_received(token_received), .token(token));

  always #5 clk = ~clk;

  always @(posedge clk) #1 $display("tok_rx=%b tok=%b data_out=%h", token_received, token, data_out);

  task automatic cyc(input bit send, input [3:0] d);
    @(negedge clk); has_data_to_send = send; data_in = d;
  endtask

  initial begin
    rst = 1; has_data_to_send = 0; data_in = 0;
    repeat (2) @(negedge clk); rst = 0;
    // full rotations with nothing to send, then with data every cycle
    repeat (8) cyc(0, 4'hF);
    repeat (8) cyc(1, 4'hF);
    repeat (8) cyc(1, 4'h0);
    for (int i = 0; i < 32; i++) cyc(1, i);
    // data only on every other node
    for (int i = 0; i < 16; i++) cyc(i % 2, ~i);
    // random
    for (int i = 0; i < 200; i++) cyc($urandom(), $urandom());
    // asynchronous resets at different positions in the ring
    for (int k = 0; k < 4; k++) begin
      repeat (k + 1) cyc(1, 4'hA);
      #2 rst = 1; #3 rst = 0;
    end
    // the node that holds the token right after reset sends its data: vary the data across resets
    foreach (pat[i]) begin
      cyc(1, pat[i]); cyc(1, pat[i]);
      #2 rst = 1; #3 rst = 0;
    end
    repeat (6) cyc(1, 4'h5);
    $finish;
  end
  logic [3:0] pat[6] = '{4'hF, 4'h0, 4'h5, 4'h0, 4'hF, 4'h0};
endmodule
