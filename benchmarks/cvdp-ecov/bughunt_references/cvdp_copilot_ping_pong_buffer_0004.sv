// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with the checks its spec allows.
`timescale 1ns/1ps
module tb;
  logic clk = 0, rst_n, write_enable, read_enable;
  logic [7:0] data_in;
  logic [7:0] data_out;
  logic buffer_full, buffer_empty, buffer_select;

  ping_pong_buffer dut (.clk(clk), .rst_n(rst_n), .write_enable(write_enable), .read_enable(read_enable),
    .data_in(data_in), .data_out(data_out), .buffer_full(buffer_full), .buffer_empty(buffer_empty),
    .buffer_select(buffer_select));

  always #10 clk = ~clk;

  // Checks from the spec, which gives no cycle-level pointer behaviour: the asynchronous reset returns the
  // buffer to its initial state (empty, not full, buffer 0 selected), and the buffer is never full and
  // empty at once. Inputs change on falling edges; checked after each rising edge.
  always @(negedge rst_n) #0.5 if ({buffer_full, buffer_empty, buffer_select} !== 3'b010)
    $fatal(1, "%0t: reset: full %b empty %b select %b", $time, buffer_full, buffer_empty, buffer_select);
  initial #12 if ({buffer_full, buffer_empty, buffer_select} !== 3'b010) $fatal(1, "initial state after reset");
  always @(posedge clk) #0.5 if (buffer_full === 1'b1 && buffer_empty === 1'b1)
    $fatal(1, "%0t: buffer full and empty at once", $time);

  task automatic cyc(input bit we, input bit re, input [7:0] d);
    @(negedge clk); write_enable = we; read_enable = re; data_in = d;
  endtask

  initial begin
    rst_n = 0; write_enable = 0; read_enable = 0; data_in = 0;
    #150 rst_n = 1;
    // read while empty, write one, read it
    cyc(0, 1, 0); cyc(1, 0, 8'hA5); cyc(0, 0, 0); cyc(0, 1, 0); cyc(0, 1, 0); cyc(0, 0, 0);
    // fill until full (and keep writing while full)
    for (int i = 0; i < 270; i++) cyc(1, 0, i[0] ? 8'hFF : 8'h00);
    $display("full=%b empty=%b sel=%b", buffer_full, buffer_empty, buffer_select);
    // drain until empty (buffer swaps at the end of a pass)
    for (int i = 0; i < 270; i++) cyc(0, 1, 0);
    $display("full=%b empty=%b sel=%b", buffer_full, buffer_empty, buffer_select);
    // several ping-pong passes with patterned data
    for (int pass = 0; pass < 4; pass++) begin
      for (int i = 0; i < 256; i++) cyc(1, 0, pass[0] ? ~i[7:0] : i[7:0]);
      for (int i = 0; i < 260; i++) cyc(0, 1, 0);
    end
    // concurrent reads and writes
    for (int i = 0; i < 600; i++) cyc(1, i > 3, $urandom());
    // random enables
    for (int i = 0; i < 2000; i++) cyc($urandom() % 3 != 0, $urandom() % 2, $urandom());
    // asynchronous reset mid-stream
    cyc(1, 1, 8'h3C);
    #3 rst_n = 0; #10 rst_n = 1;
    for (int i = 0; i < 10; i++) cyc(1, 1, i);
    cyc(0, 0, 0);
    $finish;
  end
endmodule
