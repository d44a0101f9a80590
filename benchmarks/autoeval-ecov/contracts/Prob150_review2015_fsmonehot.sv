// Interface contract of Prob150_review2015_fsmonehot (issue 22): state is the one-hot code of
// (S, S1, S11, S110, B0, B1, B2, B3, Count, Wait). Checked at every change of state (the other inputs may
// change in the same time step before the new state arrives), time 0 included (issue 30: a state driven at
// time 0 was never checked). Verilator starts every event control once at time 0 whether or not a port
// changed, so at time 0 a state other than 0 is one the testbench drove; a 0 there is the port before the
// testbench drives it (two-state: not told apart from a driven 0), judged when state next changes.
module ecov_contract (input logic d, input logic done_counting, input logic ack, input logic [9:0] state,
                      input logic B3_next, input logic S_next, input logic S1_next, input logic Count_next,
                      input logic Wait_next, input logic done, input logic counting, input logic shift_ena);
  always @(state) if ($realtime > 0 || state != 10'd0) begin
    if (!$onehot(state)) `ECOV_VIOLATION(state_one_hot)
  end
  always @(state or d or done_counting or ack) if ($realtime > 0 && $onehot(state)) begin
    `ECOV_COVER(s_d1, state[0] && d)
    `ECOV_COVER(s110_d1_to_b0, state[3] && d)
    `ECOV_COVER(b2_to_b3, state[6])
    `ECOV_COVER(b3_to_count, state[7])
    `ECOV_COVER(count_stay, state[8] && !done_counting)
    `ECOV_COVER(count_to_wait, state[8] && done_counting)
    `ECOV_COVER(wait_stay, state[9] && !ack)
    `ECOV_COVER(wait_to_s, state[9] && ack)
  end
endmodule
