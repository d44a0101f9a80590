// Interface contract of hamming_code_receiver (cvdp hamming_code_tx_and_rx_0031, issue 22).
// single_bit_errors_only: every value of data_in is a golden codeword (the prompt's encoder: bit 0 = 0,
// even parity bits at 1, 2, 4, data at 3, 5, 6, 7) or one with exactly one bit flipped. Which codeword
// was encoded is not visible on the ports, so a word is illegal only when no codeword lies within one
// bit of it (a double error that looks like a single error of another codeword cannot be told apart).
// input_held_10_time_units: data_in changes at least 10 ns (the simulation's time unit) after its
// previous change (changes within one time step count as one).
module ecov_contract (input logic [7:0] data_in, input logic [3:0] data_out);
  function automatic logic [7:0] encode(input logic [3:0] d);
    return {d[3], d[2], d[1], d[1] ^ d[2] ^ d[3], d[0], d[0] ^ d[2] ^ d[3], d[0] ^ d[1] ^ d[3], 1'b0};
  endfunction
  // position of the single flipped bit (0..7), 8 for a clean codeword, -1 when no codeword is within one bit
  function automatic int err_pos(input logic [7:0] v, output logic [3:0] data);
    data = 4'd0;
    for (int d = 0; d < 16; d++) begin
      if (encode(4'(d)) == v) begin data = 4'(d); return 8; end
      for (int p = 0; p < 8; p++) if ((encode(4'(d)) ^ (8'h1 << p)) == v) begin data = 4'(d); return p; end
    end
    return -1;
  endfunction

  realtime last_change;
  bit changed_once;
  logic [7:0] pos_seen;
  logic [15:0] data_seen;
  initial begin changed_once = 1; last_change = 0;  // time 0 holds the first value (issue 30)
    pos_seen = '0; data_seen = '0; end

  always @(data_in) begin
    int p;
    logic [3:0] d;
    p = err_pos(data_in, d);
    if (p < 0) `ECOV_VIOLATION(single_bit_errors_only)
    if (changed_once && $realtime > last_change && $realtime - last_change < 10.0 - 1e-6)
      `ECOV_VIOLATION(input_held_10_time_units)
    if (!changed_once || $realtime > last_change) last_change = $realtime;
    changed_once = 1;
    if (p >= 0) begin
      if (p < 8) pos_seen[p] = 1'b1;
      data_seen[d] = 1'b1;
      `ECOV_COVER(clean_codeword, p == 8)
      `ECOV_COVER(error_in_parity_bit, p == 1 || p == 2 || p == 4)
      `ECOV_COVER(error_in_data_bit, p == 3 || p == 5 || p == 6 || p == 7)
      `ECOV_COVER(error_in_redundant_bit, p == 0)
      `ECOV_COVER(every_error_position, &pos_seen)
      `ECOV_COVER(data_min, d == 4'd0)
      `ECOV_COVER(data_max, d == 4'd15)
      `ECOV_COVER(all_data_values, &data_seen)
    end
  end
endmodule
