// Interface contract of Prob079_fsm3onehot (issue 22): the state input is one-hot (A=0001, B=0010,
// C=0100, D=1000). Checked whenever the inputs change after time 0 (before the testbench drives
// anything the input is simply unset).
module ecov_contract (input logic in, input logic [3:0] state, input logic [3:0] next_state, input logic out);
  always @(state or in) if ($realtime > 0) begin
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
