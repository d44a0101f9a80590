// Interface contract of Prob079_fsm3onehot (issue 22): the state input is one-hot (A=0001, B=0010,
// C=0100, D=1000). Checked whenever the inputs change, time 0 included (issue 30: a value driven at time 0
// was never checked). Verilator starts every event control once at time 0 whether or not a port changed,
// so at time 0 a state other than 0 is one the testbench drove; a 0 there is the port before the testbench
// drives it (a two-state simulator cannot tell it from a driven 0) and is judged at the next change.
module ecov_contract (input logic in, input logic [3:0] state, input logic [3:0] next_state, input logic out);
  always @(state or in) if ($realtime > 0 || state != 4'b0000) begin
    if (!$onehot(state)) `ECOV_VIOLATION(state_one_hot)
    `ECOV_COVER(a_in0, state == 4'b0001 && !in)
    `ECOV_COVER(a_in1, state == 4'b0001 && in)
    `ECOV_COVER(b_in0, state == 4'b0010 && !in)
    `ECOV_COVER(b_in1, state == 4'b0010 && in)
    `ECOV_COVER(c_in0, state == 4'b0100 && !in)
    `ECOV_COVER(c_in1, state == 4'b0100 && in)
    `ECOV_COVER(d_in0, state == 4'b1000 && !in)
    `ECOV_COVER(d_in1, state == 4'b1000 && in)
  end
endmodule
