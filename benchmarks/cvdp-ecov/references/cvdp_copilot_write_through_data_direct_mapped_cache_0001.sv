`timescale 1ns/1ps
module tb_ddm_cache;
  logic clk = 0, rst_n, cpu_strobe, cpu_rw, uncached, mem_ready;
  logic [31:0] cpu_addr, cpu_dout, mem_dout;
  logic [31:0] cpu_din, mem_din, mem_addr, d_data_dout;
  logic cpu_ready, mem_strobe, mem_rw, cache_hit, cache_miss;

  ddm_cache dut (.clk(clk), .rst_n(rst_n), .cpu_addr(cpu_addr), .cpu_dout(cpu_dout), .cpu_strobe(cpu_strobe),
    .cpu_rw(cpu_rw), .uncached(uncached), .mem_dout(mem_dout), .mem_ready(mem_ready), .cpu_din(cpu_din),
    .mem_din(mem_din), .cpu_ready(cpu_ready), .mem_strobe(mem_strobe), .mem_rw(mem_rw), .mem_addr(mem_addr),
    .cache_hit(cache_hit), .cache_miss(cache_miss), .d_data_dout(d_data_dout));

  always #5 clk = ~clk;

  task automatic access(input [31:0] addr, input bit rw, input [31:0] wdata, input bit unc = 0,
                        input int mem_lat = 1);
    @(negedge clk); cpu_addr = addr; cpu_rw = rw; cpu_dout = wdata; uncached = unc; cpu_strobe = 1;
    mem_dout = $urandom(); mem_ready = 0;
    repeat (mem_lat) @(negedge clk);
    mem_ready = 1; @(negedge clk);
    $display("%s %h hit=%b miss=%b din=%h", rw ? "WR" : "RD", addr, cache_hit, cache_miss, cpu_din);
    cpu_strobe = 0; mem_ready = 0;
  endtask

  initial begin
    rst_n = 0; cpu_strobe = 0; cpu_rw = 0; uncached = 0; mem_ready = 0; cpu_addr = 0; cpu_dout = 0; mem_dout = 0;
    repeat (2) @(negedge clk); rst_n = 1;
    // read misses fill every line, then read hits
    for (int i = 0; i < 64; i++) access({24'h00_0000, i[5:0], 2'b00}, 0, 0, 0, i % 3);
    for (int i = 0; i < 64; i++) access({24'h00_0000, i[5:0], 2'b00}, 0, 0, 0, 0);
    // write-through to every line with all-ones / all-zeros tags and data
    for (int i = 0; i < 64; i++) access({24'hFF_FFFF, i[5:0], 2'b11}, 1, 32'hFFFF_FFFF);
    for (int i = 0; i < 64; i++) access({24'hFF_FFFF, i[5:0], 2'b00}, 0, 0);
    for (int i = 0; i < 64; i++) access({24'h00_0000, i[5:0], 2'b00}, 1, 32'h0000_0000);
    // conflict misses: same index, different tag
    for (int t = 0; t < 8; t++) begin access({24'h1 << t, 6'd5, 2'b00}, 0, 0); access({24'h1 << t, 6'd5, 2'b00}, 0, 0); end
    // uncached I/O reads and writes
    access(32'hFFFF_0000, 0, 0, 1); access(32'hFFFF_0004, 1, 32'h1234_5678, 1); access(32'hFFFF_0000, 0, 0, 1);
    // random traffic from a small tag pool so hits and misses mix
    repeat (800) access({($urandom() % 4 == 0) ? $urandom() : {22'h0, 2'($urandom())}, 6'($urandom()), 2'($urandom())} ,
                        $urandom() % 3 == 0, $urandom(), $urandom() % 8 == 0, $urandom() % 3);
    // idle cycles with memory ready toggling
    repeat (5) begin @(negedge clk); mem_ready = ~mem_ready; end
    // asynchronous reset invalidates everything
    access(32'h0000_0010, 1, 32'hCAFE_0000);
    #2 rst_n = 0; #4 rst_n = 1;
    access(32'h0000_0010, 0, 0);
    $finish;
  end
endmodule
