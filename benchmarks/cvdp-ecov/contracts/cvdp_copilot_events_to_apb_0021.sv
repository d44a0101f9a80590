// Interface contract of apb_controller (cvdp events_to_apb_0021, issue 22): the event selects are
// one-clock-cycle pulses, an event input is not re-asserted before one cycle after its previous APB
// transaction completed, and an event's address/data stay stable from its trigger until the transfer
// takes them (the edge that enters SETUP for it).
// The monitor tracks the event queue as the spec describes it (A > B > C from the queue, one transfer at a
// time, completion on pready or the 15-cycle timeout), from the ports only.
module ecov_contract (
    input logic clk, input logic reset_n, input logic select_a_i, input logic select_b_i, input logic select_c_i,
    input logic [31:0] addr_a_i, input logic [31:0] data_a_i, input logic [31:0] addr_b_i,
    input logic [31:0] data_b_i, input logic [31:0] addr_c_i, input logic [31:0] data_c_i,
    input logic apb_psel_o, input logic apb_penable_o, input logic [31:0] apb_paddr_o, input logic apb_pwrite_o,
    input logic [31:0] apb_pwdata_o, input logic apb_pready_i);
  logic [2:0] sel_q, pend, list, cur;
  logic [3:0] cnt;
  int wait_cycles;
  logic timed_out, completed;
  wire [2:0] sel = {select_c_i, select_b_i, select_a_i};
  wire [2:0] pick = list[0] ? 3'b001 : list[1] ? 3'b010 : list[2] ? 3'b100 : 3'b000;
  wire done_now = apb_penable_o && (apb_pready_i || cnt == 4'd15);
  wire [63:0] pay [3] = '{{addr_a_i, data_a_i}, {addr_b_i, data_b_i}, {addr_c_i, data_c_i}};
  logic [63:0] held [3];
  logic [2:0] waiting;  // triggered, payload not yet taken by the transfer
  always @(posedge clk or negedge reset_n) begin
    if (!reset_n) begin
      waiting <= '0; sel_q <= '0; pend <= '0; list <= '0; cur <= '0; cnt <= '0; wait_cycles <= 0; timed_out <= 0; completed <= 0;
    end else begin
      if (|(sel & sel_q)) `ECOV_VIOLATION(select_one_cycle_pulse)
      else if (|(sel & pend)) `ECOV_VIOLATION(no_retrigger_before_completion)
      else begin
        for (int i = 0; i < 3; i++) if (waiting[i] && pay[i] != held[i]) `ECOV_VIOLATION(payload_stable_until_transfer)
      end
      for (int i = 0; i < 3; i++)
        if (sel[i] && !(apb_psel_o && done_now)) begin waiting[i] <= 1'b1; held[i] <= pay[i]; end
        else if ((!apb_psel_o && pick[i]) || !pend[i]) waiting[i] <= 1'b0;
      sel_q <= sel;
      cnt <= (apb_penable_o && !apb_pready_i) ? cnt + 4'd1 : 4'd0;
      wait_cycles <= apb_penable_o ? wait_cycles + 1 : 0;
      timed_out <= apb_penable_o && !apb_pready_i && cnt == 4'd15;
      completed <= apb_penable_o && apb_pready_i;
      if (!apb_psel_o) begin
        list <= pend;
        if (|pick) cur <= pick;
        pend <= pend | sel;
      end else if (done_now) begin
        pend <= pend & ~cur;  // as the design does: a select on the completing edge is not queued
        list <= list & ~cur;
      end else pend <= pend | sel;
    end
  end
  always @(posedge clk) if (reset_n) begin
    `ECOV_COVER(single_event_a, sel == 3'b001)
    `ECOV_COVER(single_event_b, sel == 3'b010)
    `ECOV_COVER(single_event_c, sel == 3'b100)
    `ECOV_COVER(all_events_simultaneous, sel == 3'b111)
    `ECOV_COVER(two_events_simultaneous, sel == 3'b011 || sel == 3'b101 || sel == 3'b110)
    `ECOV_COVER(event_while_busy, |sel && apb_psel_o)
    `ECOV_COVER(transfer_without_wait, apb_penable_o && apb_pready_i && wait_cycles == 0)
    `ECOV_COVER(transfer_with_wait, apb_penable_o && apb_pready_i && wait_cycles > 0)
    `ECOV_COVER(timeout, apb_penable_o && !apb_pready_i && cnt == 4'd15)
    `ECOV_COVER(setup_phase, apb_psel_o && !apb_penable_o && apb_pwrite_o)
    `ECOV_COVER(back_to_back_from_queue, !apb_psel_o && (completed || timed_out) && |list)
  end
  always @(negedge reset_n) `ECOV_COVER(reset_with_events_pending, apb_psel_o || |pend)
endmodule
