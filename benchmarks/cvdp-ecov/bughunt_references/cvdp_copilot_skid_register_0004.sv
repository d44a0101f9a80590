// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  localparam DATA_WIDTH = 32;   // default configuration
  reg clk = 0, rst, up_val, dn_rdy;
  reg [DATA_WIDTH-1:0] up_bus;
  wire up_rdy, dn_val;
  wire [DATA_WIDTH-1:0] dn_bus;

  skid_register dut (.clk(clk), .rst(rst), .up_bus(up_bus), .up_val(up_val), .up_rdy(up_rdy),
    .dn_bus(dn_bus), .dn_val(dn_val), .dn_rdy(dn_rdy));

  always #5 clk = ~clk;

  // Scoreboard of the spec (a valid/ready pipeline stage with a skid buffer): every word accepted upstream
  // (up_val && up_rdy at a rising edge) leaves downstream (dn_val && dn_rdy) once, in order, unchanged;
  // nothing else leaves; the synchronous reset empties the stage (dn_val low after it). Inputs change on
  // falling edges: handshakes read at rising ones.
  logic [DATA_WIDTH-1:0] m_q [$];
  always @(posedge clk) begin
    if (rst) m_q = {};
    else if (!$isunknown({up_val, dn_rdy})) begin
      if (dn_val && dn_rdy) begin
        if (m_q.size() == 0) $fatal(1, "%0t: dn_bus %h delivered with nothing accepted", $time, dn_bus);
        else begin
          automatic logic [DATA_WIDTH-1:0] want = m_q.pop_front();
          if (dn_bus !== want) $fatal(1, "%0t: dn_bus %h, expected %h", $time, dn_bus, want);
        end
      end
      if (up_val && up_rdy) m_q.push_back(up_bus);
    end
    #0.5 if (rst && dn_val !== 1'b0) $fatal(1, "%0t: dn_val set after reset", $time);
  end

  task automatic cyc(input bit v, input [DATA_WIDTH-1:0] d, input bit r);
    @(negedge clk); up_val = v; up_bus = d; dn_rdy = r;
  endtask

  initial begin
    rst = 1; up_val = 0; up_bus = 0; dn_rdy = 0;
    repeat (3) @(negedge clk); rst = 0;
    // streaming with a ready sink
    for (int i = 0; i < 8; i++) cyc(1, i[0] ? 32'hFFFF_FFFF : 32'h0, 1);
    // back-pressure: sink stalls while upstream keeps sending (fills the skid buffer)
    cyc(1, 32'hAAAA_AAAA, 0); cyc(1, 32'h5555_5555, 0); cyc(1, 32'h1234_5678, 0); cyc(1, 32'h8765_4321, 0);
    cyc(0, 32'h0, 1); cyc(0, 32'h0, 1); cyc(0, 32'h0, 1);
    // alternating ready
    for (int i = 0; i < 20; i++) cyc(1, {$urandom()}, i % 2);
    // bubbles on the upstream side
    for (int i = 0; i < 20; i++) cyc(i % 3 == 0, $urandom(), 1);
    // stall with skid full, then let it drain
    cyc(1, 32'hFFFF_FFFF, 0); cyc(1, 32'h0000_0000, 0); cyc(1, 32'hFFFF_FFFF, 1); cyc(1, 32'h0, 0); cyc(0, 0, 1);
    // random
    repeat (600) cyc($urandom(), $urandom(), $urandom());
    // synchronous reset with data in flight
    cyc(1, 32'hDEAD_BEEF, 0); cyc(1, 32'hCAFE_F00D, 0);
    @(negedge clk); rst = 1; @(negedge clk); rst = 0;
    repeat (4) cyc(1, $urandom(), 1);
    $finish;
  end
endmodule
