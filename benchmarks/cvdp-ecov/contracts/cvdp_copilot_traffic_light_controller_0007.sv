// Interface contract of traffic_controller_fsm (cvdp traffic_light_controller_0007, issue 22): "any
// changes to the input signals are applied between clock edges". Checked while i_rst_b is high on the
// sensor and timer inputs (reset is the harness's own duty): none of them changes in the time step of a
// rising edge of i_clk (before or after the edge). A change at the falling edge is accepted.
// Issue 32, 1.1's reset ("Assert the asynchronous reset ... for several clock cycles while keeping all
// other inputs inactive"; the prompt's only reset stimulus: 8.1 starts from it, no scenario asks for
// another): inputs_inactive_during_reset (at every rising edge of i_clk where i_rst_b is low, the sensor
// and timer inputs are low) and reset_held_multiple_cycles (every release of i_rst_b, other than at time
// 0, follows at least two rising edges of i_clk with i_rst_b low; an edge in the time step of the
// assertion or the release counts, whichever order the simulator runs them in).
// The bins follow the FSM of the prompt's transition list, mirrored from the ports.
module ecov_contract (input logic i_clk, input logic i_rst_b, input logic i_vehicle_sensor_input,
    input logic i_short_timer, input logic i_long_timer, input logic o_short_trigger, input logic o_long_trigger,
    input logic [2:0] o_main, input logic [2:0] o_side);
  // ---- rule
  realtime t_pos = 0, t_chg = 0;
  logic pos_seen = 1'b0, chg_seen = 1'b0;
  always @(i_vehicle_sensor_input or i_short_timer or i_long_timer) if (i_rst_b === 1'b1) begin
    t_chg = $realtime; chg_seen = 1'b1;
    if (pos_seen && t_pos == $realtime) `ECOV_VIOLATION(inputs_change_between_clock_edges)
  end
  always @(posedge i_clk) begin
    t_pos = $realtime; pos_seen = 1'b1;
    if (i_rst_b === 1'b1 && chg_seen && t_chg == $realtime) `ECOV_VIOLATION(inputs_change_between_clock_edges)
  end

  always @(posedge i_clk)
    if (i_rst_b === 1'b0 && (i_vehicle_sensor_input | i_short_timer | i_long_timer) === 1'b1)
      `ECOV_VIOLATION(inputs_inactive_during_reset)

  // ---- rule: reset_held_multiple_cycles
  int unsigned r_n = 0;                                  // rising edges seen while asserted
  realtime r_pos = -1.0, r_cnt = -1.0, r_rel = -1.0;   // last edge, last counted edge, last release
  always @(posedge i_clk) begin
    r_pos = $realtime;
    if (i_rst_b === 1'b0 || $realtime == r_rel) begin r_n = r_n + 1; r_cnt = $realtime; end
  end
  always @(i_rst_b) begin
    if (i_rst_b === 1'b0) r_n = (r_pos == $realtime) ? 1 : 0;
    else if ($realtime > 0) begin
      r_rel = $realtime;
      #0.001;
      if (r_n + ((r_pos == r_rel && r_cnt != r_pos) ? 1 : 0) < 2) `ECOV_VIOLATION(reset_held_multiple_cycles)
    end
  end

  // ---- bins: S1..S4 as 0..3, mirrored from the inputs
  logic [1:0] st;
  logic veh, stm, ltm;
  logic [1:0] held;  // cycles a timer input has been high in a row (saturating)
  assign veh = i_vehicle_sensor_input; assign stm = i_short_timer; assign ltm = i_long_timer;
  always @(posedge i_clk or negedge i_rst_b) begin
    if (!i_rst_b) begin st <= 2'd0; held <= 2'd0; end
    else begin
      held <= (stm || ltm) ? (held == 2'd3 ? held : held + 2'd1) : 2'd0;
      case (st)
        2'd0: if (veh && ltm) st <= 2'd1;
        2'd1: if (stm) st <= 2'd2;
        2'd2: if (!veh || ltm) st <= 2'd3;
        2'd3: if (stm) st <= 2'd0;
      endcase
    end
  end
  always @(posedge i_clk) if (i_rst_b) begin
    `ECOV_COVER(s1_vehicle_no_timer, st == 2'd0 && veh && !ltm)
    `ECOV_COVER(s1_timer_no_vehicle, st == 2'd0 && !veh && ltm)
    `ECOV_COVER(s1_to_s2, st == 2'd0 && veh && ltm)
    `ECOV_COVER(s2_wait, st == 2'd1 && !stm)
    `ECOV_COVER(s2_to_s3, st == 2'd1 && stm)
    `ECOV_COVER(s3_hold, st == 2'd2 && veh && !ltm)
    `ECOV_COVER(s3_to_s4_no_vehicle, st == 2'd2 && !veh && !ltm)
    `ECOV_COVER(s3_to_s4_long_timer, st == 2'd2 && veh && ltm)
    `ECOV_COVER(s4_wait, st == 2'd3 && !stm)
    `ECOV_COVER(s4_to_s1, st == 2'd3 && stm)
    `ECOV_COVER(timer_held, held != 2'd0 && (stm || ltm))
  end
  always @(negedge i_rst_b) begin
    `ECOV_COVER(reset_outside_s1, !$isunknown(st) && st != 2'd0)
  end
endmodule
