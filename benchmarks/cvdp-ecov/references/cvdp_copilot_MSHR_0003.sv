`timescale 1ns/1ps
module tb_cache_mshr;
  localparam MSHR_SIZE = 32, CS_LINE_ADDR_WIDTH = 10, WORD_SEL_WIDTH = 4, WORD_SIZE = 4;
  localparam MSHR_ADDR_WIDTH = $clog2(MSHR_SIZE);
  localparam TAG_WIDTH = 32 - (CS_LINE_ADDR_WIDTH + $clog2(WORD_SIZE) + WORD_SEL_WIDTH);
  localparam DATA_WIDTH = WORD_SEL_WIDTH + WORD_SIZE + WORD_SIZE * 8 + TAG_WIDTH;

  reg clk = 0, reset;
  reg allocate_valid, allocate_rw, finalize_valid;
  reg [CS_LINE_ADDR_WIDTH-1:0] allocate_addr;
  reg [DATA_WIDTH-1:0] allocate_data;
  reg [MSHR_ADDR_WIDTH-1:0] finalize_id;
  wire allocate_ready, allocate_pending;
  wire [MSHR_ADDR_WIDTH-1:0] allocate_id, allocate_previd;

  cache_mshr dut (.clk(clk), .reset(reset),
    .allocate_valid(allocate_valid), .allocate_ready(allocate_ready), .allocate_addr(allocate_addr),
    .allocate_rw(allocate_rw), .allocate_data(allocate_data), .allocate_id(allocate_id),
    .allocate_pending(allocate_pending), .allocate_previd(allocate_previd),
    .finalize_valid(finalize_valid), .finalize_id(finalize_id));

  always #5 clk = ~clk;

  // allocated entries (from the ports): finalize only names one of them
  reg [MSHR_SIZE-1:0] held; reg fired_q;
  always @(posedge clk)
    if (reset) begin held <= 0; fired_q <= 0; end
    else begin
      automatic reg [MSHR_SIZE-1:0] v = held;
      if (fired_q) v[allocate_id] = 1;
      if (finalize_valid) v[finalize_id] = 0;
      held <= v; fired_q <= allocate_valid && allocate_ready;
    end
  function automatic [MSHR_SIZE-1:0] allocated();
    return fired_q ? held | (1 << allocate_id) : held;
  endfunction
  // the (r mod count)-th allocated entry; found = 0 when none is allocated
  task automatic pick(input [31:0] r, output bit found, output [MSHR_ADDR_WIDTH-1:0] id);
    automatic reg [MSHR_SIZE-1:0] set = allocated();
    automatic int k = $countones(set) == 0 ? 0 : r % $countones(set);
    found = set != 0; id = 0;
    for (int i = 0; i < MSHR_SIZE; i++) if (set[i]) begin if (k == 0) begin id = i; break; end k--; end
  endtask

  function automatic [DATA_WIDTH-1:0] rdata();
    return {$urandom(), $urandom()};
  endfunction

  // one cycle: optional allocate (only when ready) and optional finalize
  task automatic step(input bit alloc, input [CS_LINE_ADDR_WIDTH-1:0] addr, input bit fin,
                      input [MSHR_ADDR_WIDTH-1:0] fid);
    allocate_valid = alloc && allocate_ready;
    allocate_addr = addr; allocate_rw = $urandom() & 1; allocate_data = rdata();
    finalize_valid = fin; finalize_id = fid;
    @(posedge clk); #1;
    allocate_valid = 0; finalize_valid = 0;
    if (allocate_pending) $display("%0t id=%0d pending prev=%0d", $time, allocate_id, allocate_previd);
  endtask

  initial begin
    reset = 1; allocate_valid = 0; allocate_rw = 0; finalize_valid = 0;
    allocate_addr = 0; allocate_data = 0; finalize_id = 0;
    repeat (3) @(posedge clk); #1;
    reset = 0;
    // fill every entry: distinct addresses first half, repeated address chain second half
    for (int i = 0; i < 16; i++) step(1, 10'h3FF ^ (10'h1 << (i % 10)) ^ i, 0, 0);
    for (int i = 0; i < 16; i++) step(1, 10'h155, 0, 0);
    // full: request must not fire
    step(1, 10'h2AA, 0, 0);
    // free entries one by one (cache hits) and reallocate them
    for (int i = 0; i < 32; i++) step(0, 0, 1, i);
    for (int i = 0; i < 32; i++) step(1, (i % 3 == 0) ? 10'h000 : $urandom(), 0, 0);
    for (int i = 31; i >= 0; i--) step(1, 10'h0AA, 1, i);
    // allocate and finalize in the same cycle on the just-allocated id
    for (int i = 0; i < 40; i++) step(1, 10'h2AA, 1, allocate_id);
    // random traffic with a small address pool so chains form and break
    for (int i = 0; i < 6000; i++) begin
      bit a, f, found; logic [CS_LINE_ADDR_WIDTH-1:0] addr; logic [31:0] r; logic [MSHR_ADDR_WIDTH-1:0] fid;
      a = ($urandom() % 4) != 0; addr = ($urandom() % 4) ? ($urandom() % 4) : $urandom();
      f = ($urandom() % 3) == 0; r = $urandom();
      pick(r, found, fid);
      step(a, addr, f && found, fid);
    end
    // drain
    for (int i = 0; i < 32; i++) step(0, 0, allocated() >> i, i);
    // synchronous reset with traffic pending
    for (int i = 0; i < 10; i++) step(1, 10'h3FF, 0, 0);
    reset = 1; step(1, 10'h3FF, 1, 5); reset = 0;
    for (int i = 0; i < 5; i++) step(1, 10'h3FF, 0, 0);
    $finish;
  end
endmodule
