// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  reg clk = 0, reset;
  reg [7:0] req;
  wire [7:0] grant;

  fixed_priority_arbiter dut (.clk(clk), .reset(reset), .req(req), .grant(grant));

  always #5 clk = ~clk;

  // Model of the spec: at each rising edge grant takes the highest-priority request (bit 0 first) as a
  // one-hot value, or 0 without requests; reset (asynchronous, active high) clears it at once.
  // req changes on falling edges: read at rising ones.
  function automatic logic [7:0] pick(input logic [7:0] r);
    for (int i = 0; i < 8; i++) if (r[i]) return 8'h1 << i;
    return 8'h0;
  endfunction
  logic [7:0] m_grant = 0;
  always @(posedge clk or posedge reset) begin
    if (reset) m_grant = 0; else m_grant = pick(req);
    #0.5 if (grant !== m_grant) $fatal(1, "%0t: req %b grant %b, expected %b", $time, req, grant, m_grant);
  end

  task automatic drive(input [7:0] r);
    @(negedge clk); req = r; repeat (2) @(posedge clk); #1 $display("req=%b grant=%b", req, grant);
  endtask

  initial begin
    reset = 1; req = 0;
    repeat (2) @(posedge clk); #1 reset = 0;
    drive(8'h00);
    // single requests, each followed by none
    for (int i = 0; i < 8; i++) begin drive(8'h1 << i); drive(8'h00); end
    // multiple requests: highest priority (lowest index) wins
    for (int i = 0; i < 8; i++) drive(8'hFF << i);
    for (int i = 7; i >= 0; i--) drive(8'h80 | (8'h1 << i));
    // every pattern
    for (int v = 0; v < 256; v++) drive(v);
    // reset during active requests
    drive(8'hA5);
    #2 reset = 1; #10 reset = 0;
    drive(8'h40); drive(8'h00);
    $finish;
  end
endmodule
