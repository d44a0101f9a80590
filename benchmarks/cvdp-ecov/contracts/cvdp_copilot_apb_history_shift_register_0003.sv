// Interface contract of APBGlobalHistoryRegister (cvdp apb_history_shift_register_0003, issue 22):
// clk_gate_en "will be toggle only on negative edge of pclk to avoid glitches". Checked while presetn is
// high as: clk_gate_en never changes while pclk is high (other than in the time step of pclk's falling
// edge) nor in the time step of pclk's rising edge; a change during pclk's low phase is accepted (it
// cannot glitch the gated clock).
// The APB port group follows the AMBA APB transfer the prompt names ("APB Signals", "APB Protocol"; its
// stimulus asks to "Drive APB signals (`pselx`, `penable`, `pwrite`) for a valid write transaction" and for
// APB read cycles, invalid only in their address). Checked at pclk's rising edges while presetn is high:
// * penable_second_phase: penable is high only with pselx high and after an edge where pselx was already
//   high (a setup phase came first; a longer access phase is accepted);
// * addr_data_stable_in_access: during the access phase paddr and pwrite (and pwdata on a write) keep the
//   values of the setup phase.
// The bins mirror control_register from the APB writes seen on the ports (written at a rising edge of
// pclk with clk_gate_en low, as the prompt describes the gating).
module ecov_contract (input logic pclk, input logic presetn, input logic [9:0] paddr, input logic pselx,
    input logic penable, input logic pwrite, input logic [7:0] pwdata, input logic history_shift_valid,
    input logic clk_gate_en, input logic pready, input logic [7:0] prdata, input logic pslverr,
    input logic history_full, input logic history_empty, input logic error_flag, input logic interrupt_full,
    input logic interrupt_error);
  // ---- rule: clk_gate_en toggles only at pclk's falling edge
  realtime t_en_change = 0, t_hi_change = 0, t_pos = 0;
  int unsigned n_hi_change = 0, n_hi_seen = 0;  // changes while pclk was high / of those, checked
  logic en_known = 1'b0;
  always @(clk_gate_en) begin
    if (en_known && !$isunknown(clk_gate_en) && presetn === 1'b1) begin
      t_en_change = $realtime;
      if (pclk === 1'b1) begin t_hi_change = $realtime; n_hi_change = n_hi_change + 1; end
    end
    en_known = !$isunknown(clk_gate_en);
  end
  always @(posedge pclk) begin
    t_pos = $realtime;
    if (presetn === 1'b1 && t_en_change == $realtime && $realtime > 0) `ECOV_VIOLATION(clk_gate_en_on_pclk_negedge)
  end
  always @(negedge pclk) begin
    // a change seen while pclk was high is legal only in this very time step (before pclk fell)
    if (n_hi_change != n_hi_seen && t_hi_change != $realtime) `ECOV_VIOLATION(clk_gate_en_on_pclk_negedge)
    n_hi_seen = n_hi_change;
  end

  // ---- rules: the APB transfer
  logic prev_sel;
  logic [9:0] s_addr;
  logic s_write;
  logic [7:0] s_wdata;
  always @(posedge pclk) begin
    if (!presetn) prev_sel <= 1'b0;
    else begin
      if (penable && !(pselx && prev_sel)) `ECOV_VIOLATION(penable_second_phase)
      else if (pselx && penable && (paddr !== s_addr || pwrite !== s_write || (pwrite && pwdata !== s_wdata)))
        `ECOV_VIOLATION(addr_data_stable_in_access)
      if (pselx && !penable) begin s_addr <= paddr; s_write <= pwrite; s_wdata <= pwdata; end
      prev_sel <= pselx;
    end
  end

  // ---- bins
  logic [3:0] ctrl;  // control_register[3:0] as written over APB
  logic was_full, active;
  wire access = pselx && penable && !clk_gate_en;
  always @(posedge pclk or negedge presetn) begin
    if (!presetn) begin ctrl <= 4'd0; was_full <= 1'b0; end
    else begin
      if (access && pwrite && paddr == 10'h0) ctrl <= pwdata[3:0];
      if (history_full) was_full <= 1'b1;
    end
  end
  always @(posedge pclk) if (presetn) begin
    if (pselx && penable) active <= 1'b1;
    `ECOV_COVER(write_control, access && pwrite && paddr == 10'h0)
    `ECOV_COVER(write_train_history, access && pwrite && paddr == 10'h1)
    `ECOV_COVER(read_predict_history, access && !pwrite && paddr == 10'h2)
    `ECOV_COVER(invalid_address_error, pslverr)
    `ECOV_COVER(access_while_gated, pselx && penable && clk_gate_en)
    `ECOV_COVER(history_full, history_full)
    `ECOV_COVER(empty_after_full, history_empty && was_full)
  end
  always @(posedge history_shift_valid) if (presetn) begin
    `ECOV_COVER(shift_no_action, !ctrl[0] && !ctrl[2])
    `ECOV_COVER(shift_prediction, ctrl[0] && !ctrl[2])
    `ECOV_COVER(shift_misprediction, !ctrl[0] && ctrl[2])
    `ECOV_COVER(shift_prediction_and_misprediction, ctrl[0] && ctrl[2])
  end
  always @(negedge presetn) begin
    `ECOV_COVER(reset_during_operation, active === 1'b1)
  end
endmodule
