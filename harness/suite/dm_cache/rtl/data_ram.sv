// SPDX-License-Identifier: Apache-2.0
// Data array of the cache: combinational read, synchronous write, cleared by reset.
module data_ram #(
    parameter int LINES = 8,
    parameter int DW = 8
) (
    input  logic                     clk,
    input  logic                     rst_n,
    input  logic [$clog2(LINES)-1:0] rd_idx,
    output logic [DW-1:0]            rd_data,
    input  logic                     we,
    input  logic [$clog2(LINES)-1:0] wr_idx,
    input  logic [DW-1:0]            wr_data
);
  logic [DW-1:0] mem [LINES];

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      for (int i = 0; i < LINES; i++) mem[i] <= '0;
    end else if (we) begin
      mem[wr_idx] <= wr_data;
    end
  end

  assign rd_data = mem[rd_idx];
endmodule
