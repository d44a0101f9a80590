// Interface contract of single_cycle_arbiter (cvdp single_cycle_arbiter_0004, issue 32): "`reset` must be
// asserted for multiple cycles before deasserting." (Reset Handling; the mid-run reset it asks for is a
// reset too).
// Checked on the ports: every release of reset (other than at time 0) follows at least two rising edges of
// clk with reset asserted since the assertion before it. Lenient on races: an edge in the time step of
// the assertion or of the release counts, whichever order the simulator runs them in (the check runs 1 ps
// after the release, once that time step is over). Bins: the prompt's listed test sequences, sampled at
// rising edges of clk while reset is released (reset bins at the assertion of reset).
module ecov_contract (input logic clk, input logic reset, input logic [7:0] req_i);
  // ---- rule: reset_held_multiple_cycles
  int unsigned n = 0;                                  // rising edges seen while asserted
  realtime t_pos = -1.0, t_cnt = -1.0, t_rel = -1.0;   // last edge, last counted edge, last release
  always @(posedge clk) begin
    t_pos = $realtime;
    if (reset === 1'b1 || $realtime == t_rel) begin n = n + 1; t_cnt = $realtime; end
  end
  always @(reset) begin
    if (reset === 1'b1) n = (t_pos == $realtime) ? 1 : 0;
    else if ($realtime > 0) begin
      t_rel = $realtime;
      #0.001;
      if (n + ((t_pos == t_rel && t_cnt != t_pos) ? 1 : 0) < 2) `ECOV_VIOLATION(reset_held_multiple_cycles)
    end
  end

  // ---- bins (N = 8, as the prompt instantiates it)
  logic [7:0] prev = 8'h00, prev2 = 8'h00; logic prev_ok = 1'b0, prev2_ok = 1'b0;
  always @(posedge clk) if (reset === 1'b0) begin
    `ECOV_COVER(no_requests, req_i == 8'h00)
    `ECOV_COVER(single_request, $onehot(req_i))
    `ECOV_COVER(simultaneous_requests, $countones(req_i) >= 2)
    `ECOV_COVER(sequential_shift, prev_ok && $onehot(req_i) && $onehot(prev) && (req_i == prev << 1 || req_i == prev >> 1))
    `ECOV_COVER(pattern_11000110, req_i == 8'b11000110)
    `ECOV_COVER(pattern_10101010, req_i == 8'b10101010)
    `ECOV_COVER(pattern_01010101, req_i == 8'b01010101)
    `ECOV_COVER(pattern_10011001, req_i == 8'b10011001)
    `ECOV_COVER(back_to_back_requests, prev_ok && prev != 8'h00 && req_i != 8'h00)
    `ECOV_COVER(high_frequency_toggle, prev2_ok && ((req_i ^ prev) & (prev ^ prev2)) != 8'h00)
    prev2 = prev; prev2_ok = prev_ok; prev = req_i; prev_ok = 1'b1;
  end else begin prev_ok = 1'b0; prev2_ok = 1'b0; end
  always @(posedge reset) `ECOV_COVER(reset_during_arbitration, req_i != 8'h00)
  // "Apply new requests after reset": a request at a rising edge after a mid-run reset (any reset after the
  // run's first release) is released, before the next reset
  int unsigned releases = 0; logic after_rst = 1'b0;
  always @(negedge reset) if ($realtime > 0) begin releases = releases + 1; after_rst = (releases > 1); end
  always @(posedge clk) if (reset === 1'b0 && after_rst && req_i != 8'h00) begin
    `ECOV_COVER(requests_after_reset, 1'b1)
    after_rst = 1'b0;
  end
endmodule
