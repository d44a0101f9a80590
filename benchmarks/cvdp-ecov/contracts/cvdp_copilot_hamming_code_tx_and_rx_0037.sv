// Interface contract of hamming_rx (cvdp hamming_code_tx_and_rx_0037, issue 22).
// single_bit_errors_only: every value of data_in is a golden codeword of the prompt's transmitter function
// (redundant bit 0 = 0, even parity bits at the powers of 2, data bits in the other positions) or one with
// exactly one bit flipped. Which value was encoded is not visible on the ports, so a word is illegal only
// when no codeword lies within one bit of it: the parity checks (XOR of the indices of the set bits)
// name the one bit to flip; with the redundant bit set no other bit may be wrong, and a check result
// outside the word names no bit.
// input_held_10_time_units: data_in changes at least 10 ns (the simulation's time unit) after its previous
// change (changes within one time step count as one).
module ecov_contract #(parameter DATA_WIDTH = 4, parameter PARITY_BIT = 3,
    parameter ENCODED_DATA = PARITY_BIT + DATA_WIDTH + 1)
  (input logic [ENCODED_DATA-1:0] data_in, input logic [DATA_WIDTH-1:0] data_out);

  function automatic int check_result(input logic [ENCODED_DATA-1:0] v);
    int s = 0;
    for (int i = 1; i < ENCODED_DATA; i++) if (v[i]) s ^= i;
    return PARITY_BIT < 31 ? (s & ((1 << PARITY_BIT) - 1)) : s;
  endfunction
  // the data bits of a word, lowest non-power-of-2 position first
  function automatic logic [DATA_WIDTH-1:0] data_bits(input logic [ENCODED_DATA-1:0] v);
    int n = 0;
    logic [DATA_WIDTH-1:0] d = '0;
    for (int k = 1; k < ENCODED_DATA; k++) if ((k & (k - 1)) != 0 && n < DATA_WIDTH) begin d[n] = v[k]; n++; end
    return d;
  endfunction

  realtime last_change;
  bit changed_once;
  logic [ENCODED_DATA-1:0] pos_seen;
  bit data_seen [logic [DATA_WIDTH-1:0]];
  initial begin changed_once = 1; last_change = 0;  // time 0 holds the first value (issue 30)
    pos_seen = '0; end

  always @(data_in) begin
    int s;
    int pos;  // flipped bit, -1 for a clean codeword
    logic [ENCODED_DATA-1:0] fixed;
    logic [DATA_WIDTH-1:0] d;
    bit legal;
    s = check_result(data_in);
    legal = data_in[0] ? (s == 0) : (s < ENCODED_DATA);
    if (!legal) `ECOV_VIOLATION(single_bit_errors_only)
    if (changed_once && $realtime > last_change && $realtime - last_change < 10.0 - 1e-6)
      `ECOV_VIOLATION(input_held_10_time_units)
    if (!changed_once || $realtime > last_change) last_change = $realtime;
    changed_once = 1;
    if (legal) begin
      pos = data_in[0] ? 0 : (s == 0 ? -1 : s);
      fixed = data_in;
      if (pos >= 0) begin fixed[pos] = ~fixed[pos]; pos_seen[pos] = 1'b1; end
      d = data_bits(fixed);
      data_seen[d] = 1'b1;
      `ECOV_COVER(clean_codeword, pos < 0)
      `ECOV_COVER(error_in_parity_bit, pos > 0 && (pos & (pos - 1)) == 0)
      `ECOV_COVER(error_in_data_bit, pos > 0 && (pos & (pos - 1)) != 0)
      `ECOV_COVER(error_in_redundant_bit, pos == 0)
      `ECOV_COVER(every_error_position, &pos_seen)
      `ECOV_COVER(data_min, d == '0)
      `ECOV_COVER(data_max, d == '1)
      `ECOV_COVER(all_data_values, DATA_WIDTH < 31 && data_seen.num() == (1 << DATA_WIDTH))
    end
  end
endmodule
