// Interface contract of prim_max_find (cvdp prim_max_0005, issue 32): "`rst_ni` must be asserted for
// multiple cycles before deasserting." (Reset Handling; the reset during operation is a reset too).
// Checked on the ports: every release of rst_ni (other than at time 0) follows at least two rising edges of
// clk_i with rst_ni asserted since the assertion before it. Lenient on races: an edge in the time step of
// the assertion or of the release counts, whichever order the simulator runs them in (the check runs 1 ps
// after the release, once that time step is over). Bins: the prompt's listed test sequences, sampled at
// rising edges of clk_i while reset is released (reset bins at the assertion of reset). Where a sequence's
// words allow two readings, either hits the bin: "sequentially increasing" values rise with the source
// index (the priority order) with at least two sources valid; "alternating" valid is 8'h55/8'hAA or a
// valid mask that flips every bit from one edge to the next.
module ecov_contract (input logic clk_i, input logic rst_ni, input logic [63:0] values_i,
    input logic [7:0] valid_i);
  // ---- rule: reset_held_multiple_cycles
  int unsigned n = 0;                                  // rising edges seen while asserted
  realtime t_pos = -1.0, t_cnt = -1.0, t_rel = -1.0;   // last edge, last counted edge, last release
  always @(posedge clk_i) begin
    t_pos = $realtime;
    if (rst_ni === 1'b0 || $realtime == t_rel) begin n = n + 1; t_cnt = $realtime; end
  end
  always @(rst_ni) begin
    if (rst_ni === 1'b0) n = (t_pos == $realtime) ? 1 : 0;
    else if ($realtime > 0) begin
      t_rel = $realtime;
      #0.001;
      if (n + ((t_pos == t_rel && t_cnt != t_pos) ? 1 : 0) < 2) `ECOV_VIOLATION(reset_held_multiple_cycles)
    end
  end

  // ---- bins (NumSrc = 8, Width = 8, as the prompt instantiates it)
  function automatic logic [7:0] v(input int i); return values_i[i*8 +: 8]; endfunction
  logic [7:0] mx; int nv, nmax; logic incr, decr, distinct;
  logic [7:0] prev_valid = 8'h00; logic prev_ok = 1'b0;
  always @(posedge clk_i) if (rst_ni === 1'b1) begin
    mx = 0; nv = 0; nmax = 0; incr = 1; decr = 1; distinct = 1;
    for (int i = 0; i < 8; i++) if (valid_i[i]) begin nv++; if (v(i) > mx) mx = v(i); end
    for (int i = 0; i < 8; i++) if (valid_i[i] && v(i) == mx) nmax++;
    for (int i = 1; i < 8; i++) begin if (!(v(i) > v(i-1))) incr = 0; if (!(v(i) < v(i-1))) decr = 0; end
    for (int i = 0; i < 8; i++) for (int j = i + 1; j < 8; j++) if (valid_i[i] && valid_i[j] && v(i) == v(j)) distinct = 0;
    `ECOV_COVER(all_invalid, valid_i == 8'h00)
    `ECOV_COVER(single_valid, nv == 1)
    `ECOV_COVER(multiple_valid_distinct, nv >= 2 && distinct)
    `ECOV_COVER(duplicate_maximums, nv >= 2 && nmax >= 2)
    `ECOV_COVER(max_at_first_index, nv >= 2 && valid_i[0] && v(0) == mx)
    `ECOV_COVER(max_at_last_index, nv >= 2 && valid_i[7] && v(7) == mx)
    `ECOV_COVER(sequentially_increasing, nv >= 2 && incr)
    `ECOV_COVER(sequentially_decreasing, nv >= 2 && decr)
    `ECOV_COVER(alternating_valid, valid_i == 8'h55 || valid_i == 8'hAA || (prev_ok && valid_i == ~prev_valid))
    prev_valid = valid_i; prev_ok = 1'b1;
  end else prev_ok = 1'b0;
endmodule
