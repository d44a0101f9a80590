// Interface contract of hamming_code_tx_for_4bit (cvdp hamming_code_tx_and_rx_0029, issue 22).
// input_held_10_time_units: after each new data_in value the testbench waits 10 time units before the
// next one: data_in changes at least 10 ns (the simulation's time unit) after its previous change
// (changes within one time step count as one).
module ecov_contract (input logic [3:0] data_in, input logic [7:0] data_out);
  realtime last_change;
  bit changed_once;
  logic [15:0] seen;
  logic [3:0] rose, fell;
  logic [3:0] prev;
  initial begin changed_once = 1; last_change = 0;  // time 0 holds the first value (issue 30)
    seen = '0; rose = '0; fell = '0; prev = '0; end

  always @(data_in) begin
    if (changed_once && $realtime > last_change && $realtime - last_change < 10.0 - 1e-6)
      `ECOV_VIOLATION(input_held_10_time_units)
    if (!changed_once || $realtime > last_change) last_change = $realtime;
    if (changed_once) begin rose = rose | (data_in & ~prev); fell = fell | (~data_in & prev); end
    changed_once = 1;
    prev = data_in;
    seen[data_in] = 1'b1;
    `ECOV_COVER(data_min, data_in == 4'd0)
    `ECOV_COVER(data_max, data_in == 4'd15)
    `ECOV_COVER(all_values, &seen)
    `ECOV_COVER(every_bit_rises_and_falls, &rose && &fell)
  end
  // outputs are combinational: sampled one time step after each input change
  always @(data_in) begin
    #1;
    `ECOV_COVER(parity_bits_all_set, data_out[1] && data_out[2] && data_out[4])
    `ECOV_COVER(parity_bits_all_clear_data_nonzero, data_in != 4'd0 && !data_out[1] && !data_out[2] && !data_out[4])
    `ECOV_COVER(data_bits_mapped, data_in == 4'b1010 && {data_out[7], data_out[6], data_out[5], data_out[3]} == 4'b1010)
  end
endmodule
