// Interface contract of lock_fsm (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic clk, input logic rst_n, input logic key_valid, input logic [15:0] key_in,
    input logic lock_req, input logic admin_clr, input logic unlocked, input logic lockout, input logic alarm,
    input logic [1:0] fail_cnt, input logic [3:0] opens, input logic [2:0] state_o);
  logic [2:0] st_q; logic kv_q;
  always @(posedge clk) begin st_q <= state_o; kv_q <= key_valid; end
  always @(posedge clk) if (rst_n) begin
    `ECOV_COVER(opened, unlocked && st_q == 3'd3)
    `ECOV_COVER(relock_request, unlocked && lock_req)
    `ECOV_COVER(open_timer_reload, unlocked && !lock_req && key_valid)
    `ECOV_COVER(open_timeout, st_q == 3'd4 && state_o == 3'd0 && !lock_req)
    `ECOV_COVER(wrong_word, key_valid && state_o <= 3'd3 && fail_cnt == 2'd1)
    `ECOV_COVER(entered_lockout, lockout && st_q != 3'd5)
    `ECOV_COVER(admin_ends_lockout, lockout && admin_clr && key_in == 16'hAD51)
    `ECOV_COVER(lockout_times_out, st_q == 3'd5 && state_o == 3'd0 && alarm)
    `ECOV_COVER(entry_dropped_idle, st_q >= 3'd1 && st_q <= 3'd3 && state_o == 3'd0 && !kv_q)
    `ECOV_COVER(opens_saturated, opens == 4'd15)
  end
endmodule
