// Interface contract of enhanced_fsm_signal_processor (cvdp concatenate_0003, issue 22): i_ack is a pulse
// of one clock cycle, so it is never high at two consecutive rising edges of i_clk while i_rst_n is high.
// Bins follow the prompt's test cases; the FSM state is tracked from the input ports with the spec's
// transitions (o_fsm_status lags it by a cycle).
module ecov_contract (input logic i_clk, input logic i_rst_n, input logic i_enable, input logic i_clear,
    input logic i_ack, input logic i_fault, input logic o_ready,
    input logic [7:0] o_vector_1, input logic [7:0] o_vector_2, input logic [7:0] o_vector_3,
    input logic [7:0] o_vector_4);
  localparam logic [1:0] IDLE = 2'b00, PROCESS = 2'b01, READY = 2'b10, FAULT = 2'b11;
  logic [1:0] st;
  logic ack_q, fault_q, o_ready_q;
  always @(posedge i_clk or negedge i_rst_n) begin
    if (!i_rst_n) begin st <= IDLE; ack_q <= 1'b0; fault_q <= 1'b0; o_ready_q <= 1'b0; end
    else begin
      if (i_ack && ack_q) `ECOV_VIOLATION(ack_one_cycle_pulse)
      ack_q <= i_ack;
      fault_q <= i_fault;
      o_ready_q <= o_ready;
      `ECOV_COVER(idle_to_process, st == IDLE && !i_fault && i_enable)
      `ECOV_COVER(ack_to_idle, st == READY && !i_fault && i_ack)
      `ECOV_COVER(fault_in_idle, st == IDLE && i_fault)
      `ECOV_COVER(fault_in_process, st == PROCESS && i_fault)
      `ECOV_COVER(fault_in_ready, st == READY && i_fault)
      `ECOV_COVER(clear_with_fault_held, st == FAULT && i_clear && i_fault)
      `ECOV_COVER(clear_from_fault, st == FAULT && i_clear && !i_fault)
      `ECOV_COVER(enable_ignored_when_busy, (st == PROCESS || st == READY) && i_enable)
      `ECOV_COVER(repeated_fault_pulses, st == FAULT && i_fault && !fault_q && !i_clear)
      `ECOV_COVER(ready_reached, o_ready && !o_ready_q)
      `ECOV_COVER(data_all_zero, o_ready && {o_vector_1, o_vector_2, o_vector_3, o_vector_4} == 32'h0000_0003)
      `ECOV_COVER(data_all_ones, o_ready && {o_vector_1, o_vector_2, o_vector_3, o_vector_4} == 32'hFFFF_FFFF)
      case (st)
        IDLE:    st <= i_fault ? FAULT : (i_enable ? PROCESS : IDLE);
        PROCESS: st <= i_fault ? FAULT : READY;
        READY:   st <= i_fault ? FAULT : (i_ack ? IDLE : READY);
        FAULT:   st <= (i_clear && !i_fault) ? IDLE : FAULT;
      endcase
    end
  end
endmodule
