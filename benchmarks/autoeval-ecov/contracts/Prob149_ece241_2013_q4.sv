// Interface contract of Prob149_ece241_2013_q4 (issue 22): bins only. The spec's sensor table lists the
// readings of the four water levels, but it states no rule on `s` (issue 32: "s is one of 3'b000, 001,
// 011, 111" was inferred from the table and the sensors' placement, not stated). Bins are sampled at the
// rising edge of clk (what the state machine sees).
module ecov_contract (input logic clk, input logic reset, input logic [2:0] s,
                      input logic fr2, input logic fr1, input logic fr0, input logic dfr);
  logic [2:0] s_q;           // s at the previous rising edge
  logic seen = 1'b0;         // a rising edge has been seen since reset went low
  always @(posedge clk) begin
    `ECOV_COVER(level_above_s2, !reset && s == 3'b111)
    `ECOV_COVER(level_s2_s1, !reset && s == 3'b011)
    `ECOV_COVER(level_s1_s0, !reset && s == 3'b001)
    `ECOV_COVER(level_below_s0, !reset && s == 3'b000)
    `ECOV_COVER(rise_to_s2_s1, !reset && seen && s_q == 3'b001 && s == 3'b011)
    `ECOV_COVER(fall_to_s2_s1, !reset && seen && s_q == 3'b111 && s == 3'b011)
    `ECOV_COVER(rise_to_s1_s0, !reset && seen && s_q == 3'b000 && s == 3'b001)
    `ECOV_COVER(fall_to_s1_s0, !reset && seen && s_q == 3'b011 && s == 3'b001)
    `ECOV_COVER(supplemental_valve_between, !reset && dfr && (s == 3'b001 || s == 3'b011))
    `ECOV_COVER(reset_to_low, reset && $realtime > 0)
    s_q <= s;
    seen <= !reset;
  end
endmodule
