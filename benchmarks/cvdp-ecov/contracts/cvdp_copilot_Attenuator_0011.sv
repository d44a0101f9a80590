// Interface contract of Attenuator (cvdp Attenuator_0011, issue 22): after each new `data` value the
// testbench waits a few clock cycles (at least 2) before driving the next one. Checked on the values
// `data` has at the rising edges of clk while reset is low: a value seen at one edge only breaks it.
module ecov_contract (input logic clk, input logic reset, input logic [4:0] data,
    input logic ATTN_CLK, input logic ATTN_DATA, input logic ATTN_LE);
  logic [4:0] data_q;
  logic started;
  int unsigned age;      // rising edges `data` has held its current value (saturating)
  int unsigned latches;  // ATTN_LE pulses since reset
  int unsigned since_clk;  // rising edges since ATTN_CLK was last high (saturating)
  always @(posedge clk) begin
    data_q <= data;
    since_clk <= ATTN_CLK ? 0 : (since_clk < 1000 ? since_clk + 1 : since_clk);
    if (reset) begin started <= 1'b0; age <= 1000; latches <= 0; end
    else begin
      started <= 1'b1;
      age <= (started && data != data_q) ? 1 : (age < 1000 ? age + 1 : age);
      if (ATTN_LE) latches <= latches + 1;
    end
  end
  always @(posedge clk) if (!reset && started) begin
    if (data != data_q && age < 2) `ECOV_VIOLATION(data_held_few_cycles)
    `ECOV_COVER(data_all_zeros, data != data_q && data == 5'b00000)
    `ECOV_COVER(data_all_ones, data != data_q && data == 5'b11111)
    `ECOV_COVER(shift_clock_one, ATTN_CLK && ATTN_DATA)
    `ECOV_COVER(shift_clock_zero, ATTN_CLK && !ATTN_DATA)
    `ECOV_COVER(latch_pulse, ATTN_LE)
    `ECOV_COVER(repeated_latch, ATTN_LE && latches >= 1)
    `ECOV_COVER(idle_same_data, data == data_q && age >= 20 && since_clk >= 16 && !ATTN_LE)
  end
  always @(posedge clk) begin
    `ECOV_COVER(reset_during_shift, reset && since_clk < 4)
  end
endmodule
