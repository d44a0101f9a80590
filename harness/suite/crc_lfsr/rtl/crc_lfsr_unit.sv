// SPDX-License-Identifier: Apache-2.0
// Data integrity unit: a CRC engine over a byte stream and a pseudo-random generator that can feed it.
module crc_lfsr_unit (
    input  logic        clk,
    input  logic        rst_n,
    // CRC
    input  logic        mode16,
    input  logic        start,
    input  logic        valid,
    input  logic [7:0]  data,
    input  logic        use_prng,    // 1: CRC input bytes come from the LFSR (low byte) instead of data
    input  logic [15:0] expected,
    output logic [15:0] crc,
    output logic        match,
    output logic [7:0]  nbytes,
    // LFSR
    input  logic        lfsr_load,
    input  logic [15:0] lfsr_seed,
    input  logic        lfsr_en,
    output logic [15:0] prng,
    output logic        zero_seed,
    output logic        period
);
  logic [7:0] crc_in;
  logic       step;

  assign crc_in = use_prng ? prng[7:0] : data;
  // In PRNG mode each valid byte also advances the generator.
  assign step = lfsr_en || (use_prng && valid);

  crc_engine u_crc (
      .clk, .rst_n, .mode16, .start, .valid, .data(crc_in), .crc, .nbytes
  );

  lfsr16 u_lfsr (
      .clk, .rst_n, .load(lfsr_load), .seed(lfsr_seed), .en(step), .state(prng), .zero_seed, .period
  );

  assign match = mode16 ? (crc == expected) : (crc[7:0] == expected[7:0]);
endmodule
