// SPDX-License-Identifier: Apache-2.0
// Valid/dirty/tag arrays of a direct-mapped cache: one combinational read port, one write port.
module tag_store #(
    parameter int LINES = 8,
    parameter int TW = 5
) (
    input  logic                     clk,
    input  logic                     rst_n,
    input  logic [$clog2(LINES)-1:0] rd_idx,
    output logic                     rd_valid,
    output logic                     rd_dirty,
    output logic [TW-1:0]            rd_tag,
    input  logic                     we,
    input  logic [$clog2(LINES)-1:0] wr_idx,
    input  logic                     wr_valid,
    input  logic                     wr_dirty,
    input  logic [TW-1:0]            wr_tag,
    output logic [LINES-1:0]         valid_bits,
    output logic [LINES-1:0]         dirty_bits
);
  logic [TW-1:0] tags [LINES];

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      valid_bits <= '0;
      dirty_bits <= '0;
      for (int i = 0; i < LINES; i++) tags[i] <= '0;
    end else if (we) begin
      valid_bits[wr_idx] <= wr_valid;
      dirty_bits[wr_idx] <= wr_dirty;
      tags[wr_idx]       <= wr_tag;
    end
  end

  assign rd_valid = valid_bits[rd_idx];
  assign rd_dirty = dirty_bits[rd_idx];
  assign rd_tag   = tags[rd_idx];
endmodule
