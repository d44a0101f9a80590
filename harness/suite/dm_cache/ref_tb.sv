// SPDX-License-Identifier: Apache-2.0
// Reference testbench for dm_cache: a memory model with stalls, latency and injected errors; the
// testbench checks every read against a golden memory and every hit/miss against a tag model.
module tb;
  logic clk = 0, rst_n = 0;
  logic req_valid = 0, req_we = 0, req_ready, flush = 0, flush_done;
  logic [7:0] req_addr = 0, req_wdata = 0, resp_rdata, hit_count, miss_count, valid_lines, dirty_lines;
  logic resp_valid, resp_hit, resp_err;
  logic mem_valid, mem_ready, mem_we, mem_rvalid = 0, mem_err = 0;
  logic [7:0] mem_addr, mem_wdata, mem_rdata = 0;

  logic [7:0] memory [256];   // backing store seen by the cache
  logic [7:0] golden [256];   // what a CPU read must return
  logic       bad    [256];   // reads of these addresses fail
  logic       m_valid [8];
  logic [4:0] m_tag [8];
  int stall_pct = 0, errors = 0, n_reads = 0;


  dm_cache u_cache (.*);

  always #5 clk = ~clk;

  // Memory model: random ready, read data 1..3 cycles after the request.
  assign mem_ready = ($urandom_range(0, 99) >= stall_pct);
  always @(posedge clk) begin
    if (mem_valid && mem_ready) begin
      if (mem_we) memory[mem_addr] <= mem_wdata;
      else begin
        automatic logic [7:0] a = mem_addr;
        fork begin
          repeat ($urandom_range(0, 2)) @(posedge clk);
          #1 mem_rvalid = 1; mem_rdata = memory[a]; mem_err = bad[a];
          @(posedge clk); #1 mem_rvalid = 0; mem_err = 0; mem_rdata = 8'($urandom);
        end join_none
      end
    end
  end

  task automatic access(input logic we, input logic [7:0] addr, input logic [7:0] wdata = 8'h00);
    logic exp_hit = m_valid[addr[2:0]] && m_tag[addr[2:0]] == addr[7:3];
    int n = 0;
    while (!req_ready) @(posedge clk);
    #1 req_valid = 1; req_we = we; req_addr = addr; req_wdata = wdata;
    @(posedge clk); #1 req_valid = 0;
    while (!resp_valid && n < 100) begin @(posedge clk); #1; n++; end
    if (!resp_valid) begin errors++; $error("no response for %h", addr); return; end
    if (resp_hit !== exp_hit) begin errors++; $error("addr %h hit=%b expected %b", addr, resp_hit, exp_hit); end
    if (bad[addr] && !exp_hit) begin
      if (!resp_err) begin errors++; $error("error not reported for %h", addr); end
      m_valid[addr[2:0]] = 0;
    end else begin
      if (resp_err) begin errors++; $error("unexpected error for %h", addr); end
      if (we) golden[addr] = wdata;
      else begin
        n_reads++;
        if (resp_rdata !== golden[addr]) begin errors++; $error("read %h = %h expected %h", addr, resp_rdata, golden[addr]); end
      end
      m_valid[addr[2:0]] = 1; m_tag[addr[2:0]] = addr[7:3];
    end
  endtask

  task automatic do_flush();
    int n = 0;
    while (!req_ready) @(posedge clk);
    #1 flush = 1;
    while (!flush_done && n < 200) begin @(posedge clk); #1; n++; end
    flush = 0;
    foreach (m_valid[i]) m_valid[i] = 0;
    if (valid_lines !== 0 || dirty_lines !== 0) begin errors++; $error("lines left after flush"); end
    for (int a = 0; a < 256; a++)
      if (memory[a] !== golden[a]) begin errors++; $error("memory[%h] stale after flush", a); end
  endtask

  initial begin
    for (int a = 0; a < 256; a++) begin memory[a] = 8'(a * 7 + 3); golden[a] = memory[a]; bad[a] = 0; end
    foreach (m_valid[i]) m_valid[i] = 0;
    bad[8'hE5] = 1; bad[8'h1F] = 1;
    repeat (2) @(posedge clk);
    rst_n = 1;
    // Cold misses, hits, writes making lines dirty, dirty evictions.
    for (int i = 0; i < 8; i++) access(0, 8'(i));
    for (int i = 0; i < 8; i++) access(0, 8'(i));
    for (int i = 0; i < 8; i++) access(1, 8'(i), 8'(8'hA0 + i));
    for (int i = 0; i < 8; i++) access(0, 8'(8'hF8 + i));          // evict all dirty lines
    for (int i = 0; i < 8; i++) access(1, 8'(8'h58 + i), 8'($urandom));  // write miss, clean victim
    access(1, 8'hFF, 8'h5A); access(1, 8'hFF, 8'hA5);               // write hit on a dirty line
    access(0, 8'h07); access(0, 8'hFF);
    // Memory errors: clean victim, dirty victim, then retry the line.
    access(0, 8'hE5);
    access(1, 8'h1D, 8'h77); access(0, 8'hE5);
    access(0, 8'h1F); access(0, 8'h1F); access(0, 8'h07);
    // Flush with dirty and clean lines, with a request waiting.
    access(1, 8'h10, 8'h01); access(0, 8'h21); access(1, 8'h33, 8'hFE);
    req_valid = 1; req_addr = 8'h10; req_we = 0;
    do_flush();
    req_valid = 0;
    do_flush();  // empty cache
    // Back-pressure from memory, random traffic.
    stall_pct = 60;
    repeat (300) access(1'($urandom_range(0, 2) == 0), {($urandom_range(0, 3) == 0) ? 3'b111 : 3'b000,
                        5'($urandom)}, 8'($urandom));
    do_flush();
    stall_pct = 0;
    // Saturate the statistics counters.
    repeat (260) access(0, 8'h42);
    for (int i = 0; i < 130; i++) begin access(0, 8'h03); access(0, 8'h0B); end
    if (hit_count !== 8'hFF || miss_count !== 8'hFF) begin errors++; $error("counters not saturated"); end
    do_flush();
    #1 rst_n = 0; #1 rst_n = 1;
    foreach (m_valid[i]) m_valid[i] = 0;
    access(0, 8'h00);
    if (errors == 0 && n_reads > 100) $display("PASS (%0d reads)", n_reads);
    else $display("FAIL: %0d errors, %0d reads", errors, n_reads);
    $finish;
  end
endmodule
