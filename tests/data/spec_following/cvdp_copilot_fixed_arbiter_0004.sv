// A testbench written from cvdp_copilot_fixed_arbiter_0004's prompt (issue 32): its apply_reset and
// drive_request tasks, with drive_request's "few cycles" as 1 for a sweep of every request pattern, so
// `req` changes at every rising edge. The arbiter answers each pattern on the next edge: the contract
// must take a request that changes every cycle as legal stimulus.
module tb;
  logic clk = 0, reset;
  logic [7:0] req;
  wire [7:0] grant;
  fixed_priority_arbiter dut (.clk(clk), .reset(reset), .req(req), .grant(grant));
  always #5 clk = ~clk;

  // Apply Reset: assert reset, wait for a few clock cycles, and deassert it.
  task apply_reset;
    reset = 1; repeat (3) @(posedge clk); reset = 0;
  endtask

  // Drive Request: apply a specific request pattern and hold it for a few cycles.
  task drive_request(input logic [7:0] pattern, input int cycles);
    req = pattern; repeat (cycles) @(posedge clk);
  endtask

  initial begin
    req = 0;
    apply_reset;
    for (int b = 0; b < 8; b++) drive_request(8'h1 << b, 2);     // single requests
    for (int v = 0; v < 256; v++) drive_request(v[7:0], 1);      // every pattern, one cycle each
    drive_request(8'hFF, 3);                                      // all requests
    drive_request(8'h00, 2);                                      // no request
    drive_request(8'h5A, 2); reset = 1; @(posedge clk); reset = 0; // reset during active requests
    drive_request(8'h00, 2);
    $finish;
  end
endmodule
