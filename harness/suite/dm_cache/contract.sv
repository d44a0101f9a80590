// Interface contract of dm_cache (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic clk, input logic rst_n, input logic req_valid, input logic req_ready,
    input logic req_we, input logic resp_valid, input logic resp_hit, input logic resp_err, input logic flush,
    input logic flush_done, input logic mem_valid, input logic mem_ready, input logic mem_we,
    input logic mem_rvalid, input logic mem_err, input logic [7:0] hit_count, input logic [7:0] miss_count);
  int pending;  // read requests taken by the memory and not yet answered
  always @(posedge clk or negedge rst_n)
    if (!rst_n) pending <= 0;
    else pending <= pending + ((mem_valid && mem_ready && !mem_we) ? 1 : 0) - (mem_rvalid ? 1 : 0);
  // The request a response answers: req_we as sampled on the edge that took it (one request at a time:
  // req_ready is low until the response). Issue 32: read_hit sampled req_we at response time and write_hit
  // did not look at it, so a read hit counted as a write hit.
  logic req_we_q;
  always @(posedge clk) if (req_valid && req_ready) req_we_q <= req_we;
  always @(posedge clk) if (rst_n) begin
    if (mem_rvalid && pending == 0) `ECOV_VIOLATION(rvalid_without_read)
    `ECOV_COVER(read_hit, resp_valid && resp_hit && !req_we_q)
    `ECOV_COVER(write_hit, resp_valid && resp_hit && req_we_q)
    `ECOV_COVER(miss_fill, resp_valid && !resp_hit && !resp_err)
    `ECOV_COVER(writeback, mem_valid && mem_ready && mem_we)
    `ECOV_COVER(fill_error, resp_valid && resp_err)
    `ECOV_COVER(memory_stall, mem_valid && !mem_ready)
    `ECOV_COVER(flush_done_pulse, flush_done)
    `ECOV_COVER(hit_count_saturated, hit_count == 8'd255)
  end
endmodule
