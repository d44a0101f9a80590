// Interface contract of cache_mshr (cvdp MSHR_0003, issue 22): allocate only when ready, and finalize only
// an allocated entry. The monitor keeps the set of allocated entries from the ports: an allocation that
// fires on an edge is known from allocate_id after that edge (so a finalize in the next cycle may name it).
module ecov_contract #(parameter MSHR_SIZE = 32, parameter CS_LINE_ADDR_WIDTH = 10,
                       parameter MSHR_ADDR_WIDTH = $clog2(MSHR_SIZE)) (
    input logic clk, input logic reset,
    input logic allocate_valid, input logic allocate_ready, input logic [CS_LINE_ADDR_WIDTH-1:0] allocate_addr,
    input logic allocate_rw, input logic [MSHR_ADDR_WIDTH-1:0] allocate_id, input logic allocate_pending,
    input logic finalize_valid, input logic [MSHR_ADDR_WIDTH-1:0] finalize_id);
  logic was_full, fired;
  always @(posedge clk) begin
    if (reset) begin was_full <= 0; fired <= 0; end
    else begin if (!allocate_ready) was_full <= 1; fired <= allocate_valid && allocate_ready; end
  end
  logic [MSHR_SIZE-1:0] allocated;
  always @(posedge clk) begin
    logic [MSHR_SIZE-1:0] v;
    if (reset) allocated <= '0;
    else begin
      v = allocated;
      if (fired) v[allocate_id] = 1'b1;
      if (allocate_valid && !allocate_ready) `ECOV_VIOLATION(allocate_only_when_ready)
      else if (finalize_valid && !v[finalize_id]) `ECOV_VIOLATION(finalize_allocated_id)
      if (finalize_valid) v[finalize_id] = 1'b0;
      allocated <= v;
    end
  end
  always @(posedge clk) if (!reset) begin
    `ECOV_COVER(allocate_read, allocate_valid && allocate_ready && !allocate_rw)
    `ECOV_COVER(allocate_write, allocate_valid && allocate_ready && allocate_rw)
    `ECOV_COVER(allocate_pending_line, allocate_valid && allocate_ready && allocate_pending)
    `ECOV_COVER(mshr_full, !allocate_ready)
    `ECOV_COVER(ready_reasserted, was_full && allocate_ready)
    `ECOV_COVER(finalize_entry, finalize_valid)
    `ECOV_COVER(finalize_just_allocated, fired && finalize_valid && finalize_id == allocate_id)
  end
endmodule
