// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with the checks its spec allows.
`timescale 1ns/1ps
module tb_token_ring_fsm;
  logic clk = 0, rst, has_data_to_send;
  logic [3:0] data_in;
  logic [3:0] data_out, token_received, token;

  token_ring_fsm uut (.clk(clk), .rst(rst), .data_in(data_in), .data_out(data_out),
    .has_data_to_send(has_data_to_send), .token_received(token_received), .token(token));

  always #5 clk = ~clk;

  // Checks from the spec: reset (asynchronous, active high) puts the token at node 0 (token_received 0001)
  // with data_out 0; from the first clock edge after it the token moves one node per cycle: token_received is
  // one-hot and advances by one node each edge, and token names the next node (token_received rotated by
  // one); data_out is 0 or the data_in offered with has_data_to_send at that edge. Inputs change on falling
  // edges; checked after each rising edge.
  int m_edges = 0;
  logic [3:0] m_prev;
  always @(posedge rst) begin
    m_edges = 0;
    #0.5 if (token_received !== 4'b0001 || data_out !== 4'b0) $fatal(1, "%0t: reset state wrong", $time);
  end
  always @(posedge clk) if (!rst) begin
    automatic logic [3:0] d = data_in;
    automatic logic h = has_data_to_send;
    #0.5;
    m_edges++;
    if ($countones(token_received) != 1 || token !== {token_received[2:0], token_received[3]})
      $fatal(1, "%0t: token_received %b token %b", $time, token_received, token);
    if (m_edges > 1 && token_received !== {m_prev[2:0], m_prev[3]})
      $fatal(1, "%0t: the token went from %b to %b", $time, m_prev, token_received);
    if (data_out !== 4'b0 && !(h && data_out === d)) $fatal(1, "%0t: data_out %h not offered", $time, data_out);
    m_prev = token_received;
  end

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
