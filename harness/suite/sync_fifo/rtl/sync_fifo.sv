// SPDX-License-Identifier: Apache-2.0
// Synchronous FIFO with full/empty, almost-full/almost-empty and sticky overflow/underflow flags.
module sync_fifo #(
    parameter int DW = 8,
    parameter int DEPTH = 32,
    parameter int AF_LEVEL = 28,  // almost_full when count >= AF_LEVEL
    parameter int AE_LEVEL = 4    // almost_empty when count <= AE_LEVEL
) (
    input  logic                     clk,
    input  logic                     rst_n,
    input  logic                     wr_en,
    input  logic [DW-1:0]            wr_data,
    input  logic                     rd_en,
    output logic [DW-1:0]            rd_data,
    output logic                     full,
    output logic                     empty,
    output logic                     almost_full,
    output logic                     almost_empty,
    output logic [$clog2(DEPTH):0]   count,
    output logic                     overflow,
    output logic                     underflow,
    input  logic                     clr_err,
    output logic                     diag
);
  localparam int AW = $clog2(DEPTH);

  logic [DW-1:0] mem [DEPTH];
  logic [AW-1:0] wr_ptr, rd_ptr;
  logic do_wr, do_rd;

  // A write when full is accepted only if a read frees a slot in the same cycle.
  assign do_rd = rd_en && !empty;
  assign do_wr = wr_en && (!full || do_rd);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      wr_ptr    <= '0;
      rd_ptr    <= '0;
      count     <= '0;
      rd_data   <= '0;
      overflow  <= 1'b0;
      underflow <= 1'b0;
    end else begin
      if (do_wr) begin
        mem[wr_ptr] <= wr_data;
        wr_ptr      <= wr_ptr + 1'b1;
      end
      if (do_rd) begin
        rd_data <= mem[rd_ptr];
        rd_ptr  <= rd_ptr + 1'b1;
      end
      case ({do_wr, do_rd})
        2'b10:   count <= count + 1'b1;
        2'b01:   count <= count - 1'b1;
        default: count <= count;
      endcase
      if (clr_err) begin
        overflow  <= 1'b0;
        underflow <= 1'b0;
      end else begin
        if (wr_en && !do_wr) overflow <= 1'b1;
        if (rd_en && empty) underflow <= 1'b1;
      end
    end
  end

  assign full         = (count == DEPTH[AW:0]);
  assign empty        = (count == '0);
  assign almost_full  = (count >= AF_LEVEL[AW:0]);
  assign almost_empty = (count <= AE_LEVEL[AW:0]);

  // Diagnostic unlock (write with clr_err high): K (K[1:0] = 2'b01), ~K, K+1, ~(K+1) on `wr_data`
  // in four consecutive cycles; anything else restarts the key. `diag` is sticky until reset.
  logic [1:0]       key_step;
  logic [DW-1:2] key_hi;  // the upper bits of K (K[1:0] is always 2'b01)
  logic             key_hit;

  always_comb begin
    case (key_step)
      2'd1:    key_hit = (wr_data == ~{key_hi, 2'b01});
      2'd2:    key_hit = (wr_data == {key_hi, 2'b01} + 1'b1);
      2'd3:    key_hit = (wr_data == ~({key_hi, 2'b01} + 1'b1));
      default: key_hit = (wr_data[1:0] == 2'b01);
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      key_step <= 2'd0;
      key_hi   <= '0;
      diag     <= 1'b0;
    end else if (wr_en && clr_err && key_hit) begin
      if (key_step == 2'd0) key_hi <= wr_data[DW-1:2];
      if (key_step == 2'd3) diag <= 1'b1;
      key_step <= key_step + 2'd1;
    end else begin
      key_step <= 2'd0;
    end
  end
endmodule
