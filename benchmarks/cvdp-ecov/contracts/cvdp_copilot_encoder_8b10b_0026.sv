// Interface contract of encoder_8b10b (cvdp encoder_8b10b_0026, issue 22): the testbench waits 1 clock
// cycle after each input change (control_in, encoder_in, disparity_data_in) before the next, so every
// setting is encoded: between two changes (changes in one time step count as one) lies a rising edge of
// clk_in. A change at an edge's time counts as made just after that edge (what a nonblocking drive at the
// edge does), so the edge at a change's own time separates it from the previous change, whatever the order
// of the two events inside that time step. While reset_in is high the inputs may change freely (the
// obligation starts again at the first change after reset).
module ecov_contract (input logic clk_in, input logic reset_in, input logic control_in,
    input logic disparity_data_in, input logic [7:0] encoder_in,
    input logic disparity_out, input logic [9:0] encoder_out);
  realtime last_change, last_edge, last_negedge;
  bit changed_once;
  initial begin changed_once = 0; last_change = 0; last_edge = -1.0; last_negedge = 0; end

  always @(negedge clk_in) last_negedge = $realtime;
  always @(posedge clk_in) last_edge = $realtime;
  always @(control_in or encoder_in or disparity_data_in) begin
    if (reset_in) changed_once = 0;
    else if (!changed_once) begin changed_once = 1; last_change = $realtime; end
    else if ($realtime > last_change) begin
      // an edge after the previous change, or one at this very time step not yet seen by the block above
      if (!(last_edge > last_change || (clk_in === 1'b1 && last_negedge > last_edge)))
        `ECOV_VIOLATION(inputs_held_one_cycle)
      last_change = $realtime;
    end
  end

  // bins: what the encoder samples at a rising edge (reset low at that edge and the one before)
  logic started, control_q, rd_q;
  logic [7:0] in_q;
  logic [255:0] data_rd0, data_rd1, ctrl_seen;
  initial begin started = 0; data_rd0 = '0; data_rd1 = '0; ctrl_seen = '0; end
  function automatic bit valid_k(input logic [7:0] v);
    return v inside {8'h1C, 8'h3C, 8'h5C, 8'h7C, 8'h9C, 8'hBC, 8'hDC, 8'hFC, 8'hF7, 8'hFB, 8'hFD, 8'hFE};
  endfunction
  always @(posedge clk_in) begin
    if (!reset_in && started) begin
      if (control_in) ctrl_seen[encoder_in] = 1'b1;
      else if (disparity_data_in) data_rd1[encoder_in] = 1'b1;
      else data_rd0[encoder_in] = 1'b1;
      `ECOV_COVER(k28_control_symbols, ctrl_seen[8'h1C] && ctrl_seen[8'h3C] && ctrl_seen[8'h5C] && ctrl_seen[8'h7C]
                  && ctrl_seen[8'h9C] && ctrl_seen[8'hBC] && ctrl_seen[8'hDC] && ctrl_seen[8'hFC])
      `ECOV_COVER(k23_k27_k29_k30_control_symbols, ctrl_seen[8'hF7] && ctrl_seen[8'hFB] && ctrl_seen[8'hFD] && ctrl_seen[8'hFE])
      `ECOV_COVER(repeated_control_symbol, control_in && control_q && encoder_in == in_q && valid_k(encoder_in))
      `ECOV_COVER(invalid_control_input, control_in && !valid_k(encoder_in))
      `ECOV_COVER(control_symbol_rd_plus, control_in && control_q && valid_k(in_q) && disparity_out)
      `ECOV_COVER(data_all_bytes, &(data_rd0 | data_rd1))
      `ECOV_COVER(data_all_bytes_both_disparities, &data_rd0 && &data_rd1)
      `ECOV_COVER(data_sequential, !control_in && !control_q && encoder_in == in_q + 8'd1)
      `ECOV_COVER(control_to_data, !control_in && control_q && valid_k(in_q))
      `ECOV_COVER(data_to_control, control_in && !control_q && valid_k(encoder_in))
      `ECOV_COVER(data_disparity_flipped, !control_in && !control_q && disparity_out != rd_q)
    end
    started <= !reset_in;
    control_q <= control_in;
    in_q <= encoder_in;
    rd_q <= disparity_data_in;
  end
endmodule
