// SPDX-License-Identifier: Apache-2.0
// 16-bit maximal-length Galois LFSR (taps 0xB400, period 65535) with seed load, lock-up guard and a
// pulse when the sequence returns to its seed.
module lfsr16 (
    input  logic        clk,
    input  logic        rst_n,
    input  logic        load,
    input  logic [15:0] seed,
    input  logic        en,
    output logic [15:0] state,
    output logic        zero_seed,   // sticky: a zero seed was replaced by 1
    output logic        period       // one-cycle pulse: state came back to the loaded seed
);
  logic [15:0] start_val, next;

  assign next = state[0] ? ((state >> 1) ^ 16'hB400) : (state >> 1);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state     <= 16'h0001;
      start_val <= 16'h0001;
      zero_seed <= 1'b0;
      period    <= 1'b0;
    end else begin
      period <= 1'b0;
      if (load) begin
        if (seed == 16'h0000) begin
          state     <= 16'h0001;
          start_val <= 16'h0001;
          zero_seed <= 1'b1;
        end else begin
          state     <= seed;
          start_val <= seed;
        end
      end else if (en) begin
        state <= next;
        if (next == start_val) period <= 1'b1;
      end
    end
  end
endmodule
