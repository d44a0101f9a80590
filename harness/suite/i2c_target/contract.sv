// Interface contract of i2c_target (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic clk, input logic rst_n, input logic scl, input logic sda, input logic sda_oe,
    input logic busy, input logic err);
  // The controller's own changes: SCL, and SDA while the target does not pull it (sda_oe low now and
  // on the previous edge); a change of SDA made by the target's sda_oe is not the controller's.
  logic scl_q, sda_q, oe_q, started;
  int scl_age, sda_age;  // cycles since the controller last changed the line (saturating at 4)
  wire scl_chg = scl != scl_q;
  wire sda_chg = sda != sda_q && !sda_oe && !oe_q;
  always @(posedge clk) begin
    scl_q <= scl; sda_q <= sda; oe_q <= sda_oe;  // the lines as they were, in reset too
    if (!rst_n) begin scl_age <= 4; sda_age <= 4; started <= 1'b0; end
    else begin
      started <= 1'b1;
      scl_age <= scl_chg ? 1 : (scl_age < 4 ? scl_age + 1 : 4);
      sda_age <= sda_chg ? 1 : (sda_age < 4 ? sda_age + 1 : 4);
    end
  end
  always @(posedge clk) if (rst_n && started) begin
    if ((scl_chg && scl_age < 4) || (sda_chg && sda_age < 4)) `ECOV_VIOLATION(lines_stable_4_cycles)
    `ECOV_COVER(start_condition, scl && scl_q && sda_q && !sda)
    `ECOV_COVER(stop_condition, scl && scl_q && !sda_q && sda)
    `ECOV_COVER(target_acks, sda_oe && busy)
    `ECOV_COVER(repeated_start, busy && scl && scl_q && sda_q && !sda)
    `ECOV_COVER(error_flag, err)
    `ECOV_COVER(back_to_idle, !busy && scl && sda)
  end
endmodule
