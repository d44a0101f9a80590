// Interface contract of async_reset (cvdp asyc_reset_0004, issue 32): "`reset` must be asserted for
// multiple clock cycles before being de-asserted." (Reset Handling; every reset its test sequences ask for
// is one).
// Checked on the ports: every release of reset (other than at time 0) follows at least two rising edges of
// clk with reset asserted since the assertion before it. Lenient on races: an edge in the time step of
// the assertion or of the release counts, whichever order the simulator runs them in (the check runs 1 ps
// after the release, once that time step is over). Bins: the prompt's listed test sequences, sampled at
// rising edges of clk while reset is released (reset bins at the assertion of reset).
module ecov_contract (input logic clk, input logic reset, input logic [4:0] cnt_q);
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

  // ---- bins
  logic zero_q = 1'b0;
  always @(posedge clk) if (reset === 1'b0) begin
    `ECOV_COVER(countdown_reaches_zero, cnt_q == 5'h1)
    `ECOV_COVER(gate_clk_boundary, cnt_q == 5'hE)
    `ECOV_COVER(release_reset_boundary, cnt_q == 5'h8)
    `ECOV_COVER(hold_at_zero, cnt_q == 5'h0 && zero_q)
    zero_q = (cnt_q == 5'h0);
  end else zero_q = 1'b0;
  always @(posedge reset) begin
    `ECOV_COVER(reset_mid_count_f, cnt_q == 5'hF)
    `ECOV_COVER(reset_at_e, cnt_q == 5'hE)
    `ECOV_COVER(reset_at_8, cnt_q == 5'h8)
  end
endmodule
