// Interface contract of cache_mshr (cvdp MSHR_0003, issue 22): allocate only when ready. The spec's
// "finalize_id should be one of the allocated indexes" is not checked: the shipped reference (data parquet,
// frozen) finalizes random ids; see README.md.
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
  always @(posedge clk) if (!reset) begin
    if (allocate_valid && !allocate_ready) `ECOV_VIOLATION(allocate_only_when_ready)
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
