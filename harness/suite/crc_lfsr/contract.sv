// Interface contract of crc_lfsr (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic clk, input logic rst_n, input logic mode16, input logic start,
    input logic valid, input logic use_prng, input logic match, input logic [7:0] nbytes,
    input logic lfsr_load, input logic [15:0] lfsr_seed, input logic lfsr_en, input logic zero_seed,
    input logic period);
  always @(posedge clk) if (rst_n) begin
    `ECOV_COVER(crc8_byte, valid && !start && !mode16)
    `ECOV_COVER(crc16_byte, valid && !start && mode16)
    `ECOV_COVER(start_over_valid, start && valid)
    `ECOV_COVER(prng_fed_byte, valid && use_prng && !start)
    `ECOV_COVER(match_after_bytes, match && nbytes != 0)
    `ECOV_COVER(nbytes_saturated, nbytes == 8'd255 && valid)
    `ECOV_COVER(zero_seed_replaced, lfsr_load && lfsr_seed == 16'd0)
    `ECOV_COVER(load_over_step, lfsr_load && lfsr_en)
    `ECOV_COVER(period_pulse, period)
  end
endmodule
