// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
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

  // Scoreboard from the spec. Inputs change 1 ns after a rising edge, so the model reads them at the edge
  // and compares 0.5 ns after it: allocate_ready is 1 while some entry is free; an allocation fires on
  // allocate_valid && allocate_ready and, one cycle later, allocate_id names a slot that was free,
  // allocate_pending says whether a valid entry held the same line address and allocate_previd names the
  // previous request of that line (checked where it is certain); finalize frees its entry one
  // cycle later. Reset is synchronous.
  reg [MSHR_SIZE-1:0] m_valid = 0, m_next = 0;  // m_next: a later request of the line may point at it
  reg [CS_LINE_ADDR_WIDTH-1:0] m_line [MSHR_SIZE];
  reg m_pending = 0, m_started = 0;
  reg [MSHR_ADDR_WIDTH-1:0] m_previd = 0;
  always @(posedge clk) begin
    automatic bit fire = allocate_valid && (m_valid != '1);
    automatic bit fin = finalize_valid;
    automatic bit rst = reset;
    automatic reg [MSHR_ADDR_WIDTH-1:0] fid = finalize_id;
    automatic reg [CS_LINE_ADDR_WIDTH-1:0] line = allocate_addr;
    automatic reg [MSHR_SIZE-1:0] prior = m_valid;
    automatic bit match = 0;
    automatic int nmatch = 0, last = 0;
    automatic reg [MSHR_SIZE-1:0] hits = 0;
    for (int i = 0; i < MSHR_SIZE; i++)
      if (prior[i] && m_line[i] == line) begin match = 1; nmatch++; last = i; hits[i] = 1; end
    if (m_started && allocate_valid && allocate_ready !== (m_valid != '1))
      $fatal(1, "%0t: allocate_ready %b with %0d entries valid", $time, allocate_ready, $countones(m_valid));
    #0.5;
    if (rst) begin
      m_valid = 0; m_next = 0; m_pending = 0; m_started = 1;
      if (allocate_pending !== 0) $fatal(1, "%0t: allocate_pending set after reset", $time);
    end else begin
      if (fin) m_valid[fid] = 0;
      if (fire) begin
        if (prior[allocate_id] !== 1'b0)
          $fatal(1, "%0t: allocate_id %0d names an entry that was still in use", $time, allocate_id);
        if (allocate_pending !== match)
          $fatal(1, "%0t: allocate_pending %b, expected %b (line %h)", $time, allocate_pending, match, line);
        // The previous request is certain when one valid entry holds the line and no request came after it.
        if (nmatch == 1 && !m_next[last] && allocate_previd !== last[MSHR_ADDR_WIDTH-1:0])
          $fatal(1, "%0t: allocate_previd %0d, expected %0d", $time, allocate_previd, last);
        m_next |= hits;
        m_valid[allocate_id] = 1; m_next[allocate_id] = 0; m_line[allocate_id] = line;
      end else if (allocate_pending !== 1'b0) $fatal(1, "%0t: allocate_pending without an allocation", $time);
      if (allocate_ready !== (m_valid != '1))
        $fatal(1, "%0t: allocate_ready %b with %0d entries valid", $time, allocate_ready, $countones(m_valid));
    end
  end

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
