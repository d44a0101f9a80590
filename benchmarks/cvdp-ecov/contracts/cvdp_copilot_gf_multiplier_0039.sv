// Interface contract of gf_multiplier (cvdp gf_multiplier_0039, issue 22): after setting each pair of inputs
// the testbench waits 10 time units (10 ns at the harness's 1ns time unit) before applying new values.
// Changes of A and B in the same time step are one setting; a new setting less than 10 ns after the
// previous one breaks the rule. Time 0 holds the first setting (issue 30: the values A and B have from
// time 0, driven or not, are a setting too, so a first change within 10 ns of time 0 breaks the rule). Bins are sampled on the settled values of a time step (A, B, result as
// they stood when the next time step's first change arrived).
module ecov_contract (input logic [3:0] A, input logic [3:0] B, input logic [3:0] result);
  logic [3:0] pa, pb, pr;
  realtime last_set, t_evt;
  bit any_set = 1'b1, any_evt;  // last_set = 0: time 0 is the first setting
  bit [255:0] seen;
  logic [6:0] prod;  // carry-less product of the settled pair, before reduction

  function automatic logic [6:0] clmul(input logic [3:0] a, input logic [3:0] b);
    logic [6:0] p = '0;
    for (int i = 0; i < 4; i++) if (b[i]) p ^= 7'(a) << i;
    return p;
  endfunction

  always @(A or B or result) begin
    if (any_evt && $realtime != t_evt && !$isunknown({pa, pb})) begin
      seen[{pa, pb}] = 1'b1;
      prod = clmul(pa, pb);
      `ECOV_COVER(a_zero, pa == 4'h0)
      `ECOV_COVER(b_zero, pb == 4'h0)
      `ECOV_COVER(both_max, pa == 4'hF && pb == 4'hF)
      `ECOV_COVER(identity_one, pa == 4'h1 || pb == 4'h1)
      `ECOV_COVER(product_reduced, prod[6:4] != 3'b000)
      `ECOV_COVER(product_unreduced, pa != 4'h0 && pb != 4'h0 && prod[6:4] == 3'b000)
      `ECOV_COVER(result_max, pr == 4'hF)
      `ECOV_COVER(all_pairs, &seen)
    end
    if (A !== pa || B !== pb) begin
      if (any_set && $realtime != last_set && $realtime - last_set < 10.0)
        `ECOV_VIOLATION(inputs_held_10_time_units)
      if (!any_set || $realtime != last_set) last_set = $realtime;
      any_set = 1'b1;
    end
    t_evt = $realtime;
    any_evt = 1'b1;
    pa = A; pb = B; pr = result;
  end
endmodule
