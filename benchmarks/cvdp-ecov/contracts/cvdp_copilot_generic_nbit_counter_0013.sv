// Interface contract of generic_counter (cvdp generic_nbit_counter_0013, issue 22): "After applying inputs,
// the testbench waits for a stabilization period of 300 clock cycles before asserting new values."
// inputs_held_300_cycles, checked per input at the rising edges of clk_in: a new value of mode_in,
// enable_in or ref_modulo is seen at least 300 edges after that input's previous new value. The values
// present before the first change made out of reset are the initial ones (not an application); rst_in is
// the reset (the harness does not judge it) and does not restart the count.
module ecov_contract #(parameter N = 8) (input logic clk_in, input logic rst_in, input logic [2:0] mode_in,
    input logic enable_in, input logic [N-1:0] ref_modulo, input logic [N-1:0] o_count);
  localparam int HOLD = 300;
  logic started;                       // first edge seen (baseline values taken)
  logic [2:0] p_mode; logic p_en; logic [N-1:0] p_ref;
  logic a_mode, a_en, a_ref;           // a value of that input was applied out of reset
  int unsigned g_mode, g_en, g_ref;    // edges since that input's last new value
  logic [N-1:0] wrap_refs [0:2];
  int unsigned n_refs;
  logic rst_q;
  initial begin started = 0; a_mode = 0; a_en = 0; a_ref = 0; n_refs = 0; rst_q = 0; end

  always @(posedge clk_in) begin
    if (started) begin
      if (mode_in !== p_mode) begin
        if (a_mode && g_mode < HOLD) `ECOV_VIOLATION(inputs_held_300_cycles)
        if (!rst_in) a_mode = 1; g_mode = 1;
      end else g_mode = g_mode + 1;
      if (enable_in !== p_en) begin
        if (a_en && g_en < HOLD) `ECOV_VIOLATION(inputs_held_300_cycles)
        if (!rst_in) a_en = 1; g_en = 1;
      end else g_en = g_en + 1;
      if (ref_modulo !== p_ref) begin
        if (a_ref && g_ref < HOLD) `ECOV_VIOLATION(inputs_held_300_cycles)
        if (!rst_in) a_ref = 1; g_ref = 1;
      end else g_ref = g_ref + 1;
    end
    started = 1;
    p_mode = mode_in; p_en = enable_in; p_ref = ref_modulo;
  end

  // ---- bins (sampled at the rising edges out of reset)
  logic [2:0] q_mode; logic q_en; logic [N-1:0] q_count;
  always @(posedge clk_in) begin
    if (!rst_in) begin
      `ECOV_COVER(mode_binary_up, enable_in && mode_in == 3'd0 && q_en && q_mode == 3'd0 && o_count != q_count)
      `ECOV_COVER(mode_binary_down, enable_in && mode_in == 3'd1 && q_en && q_mode == 3'd1 && o_count != q_count)
      `ECOV_COVER(mode_modulo, enable_in && mode_in == 3'd2 && q_en && q_mode == 3'd2 && o_count != q_count)
      `ECOV_COVER(mode_johnson, enable_in && mode_in == 3'd3 && q_en && q_mode == 3'd3 && o_count != q_count)
      `ECOV_COVER(mode_gray, enable_in && mode_in == 3'd4 && q_en && q_mode == 3'd4 && o_count != q_count)
      `ECOV_COVER(mode_ring, enable_in && mode_in == 3'd5 && q_en && q_mode == 3'd5 && o_count != q_count)
      if (enable_in && mode_in == 3'd2 && o_count == ref_modulo && ref_modulo != '0) begin
        if (n_refs < 3 && (n_refs < 1 || wrap_refs[0] != ref_modulo) && (n_refs < 2 || wrap_refs[1] != ref_modulo)) begin
          wrap_refs[n_refs] = ref_modulo; n_refs = n_refs + 1;
        end
      end
      `ECOV_COVER(modulo_wrap, enable_in && mode_in == 3'd2 && o_count == ref_modulo && ref_modulo != '0)
      `ECOV_COVER(modulo_three_references, n_refs >= 3)
      `ECOV_COVER(enable_low_holds_count, !enable_in && !q_en && o_count != '0 && o_count == q_count)
      `ECOV_COVER(mode_change_while_counting, enable_in && q_en && mode_in != q_mode && mode_in <= 3'd5 && q_mode <= 3'd5 && q_count != '0)
    end
    q_mode <= mode_in; q_en <= enable_in; q_count <= o_count;
  end
  always @(posedge rst_in) `ECOV_COVER(reset_nonzero_count, o_count != '0)
endmodule
