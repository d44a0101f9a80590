// SPDX-License-Identifier: Apache-2.0
// Direct-mapped, write-back, write-allocate cache: 8 lines of one byte, 8-bit addresses.
// Handles dirty evictions, memory back-pressure, memory read errors and a full flush.
module dm_cache (
    input  logic       clk,
    input  logic       rst_n,
    // CPU side
    input  logic       req_valid,
    output logic       req_ready,
    input  logic       req_we,
    input  logic [7:0] req_addr,
    input  logic [7:0] req_wdata,
    output logic       resp_valid,
    output logic [7:0] resp_rdata,
    output logic       resp_hit,
    output logic       resp_err,
    input  logic       flush,
    output logic       flush_done,
    // memory side
    output logic       mem_valid,
    input  logic       mem_ready,
    output logic       mem_we,
    output logic [7:0] mem_addr,
    output logic [7:0] mem_wdata,
    input  logic       mem_rvalid,
    input  logic [7:0] mem_rdata,
    input  logic       mem_err,
    // statistics (saturating)
    output logic [7:0] hit_count,
    output logic [7:0] miss_count,
    // line state, for observation
    output logic [7:0] valid_lines,
    output logic [7:0] dirty_lines
);
  typedef enum logic [2:0] {IDLE, COMPARE, WB, FILL, FILL_WAIT, FLUSH_SCAN, FLUSH_WB} state_t;

  state_t     state;
  logic       r_we, r_missed;
  logic [7:0] r_addr, r_wdata;
  logic [2:0] idx, fl_idx;
  logic [4:0] r_tag;

  logic       t_valid, t_dirty;
  logic [4:0] t_tag;
  logic       t_we, t_wvalid, t_wdirty;
  logic [4:0] t_wtag;
  logic [7:0] d_rdata, d_wdata;
  logic       d_we;
  logic       hit;

  assign idx   = (state == FLUSH_SCAN || state == FLUSH_WB) ? fl_idx : r_addr[2:0];
  assign r_tag = r_addr[7:3];

  tag_store #(.LINES(8), .TW(5)) u_tags (
      .clk, .rst_n, .rd_idx(idx), .rd_valid(t_valid), .rd_dirty(t_dirty), .rd_tag(t_tag),
      .we(t_we), .wr_idx(idx), .wr_valid(t_wvalid), .wr_dirty(t_wdirty), .wr_tag(t_wtag),
      .valid_bits(valid_lines), .dirty_bits(dirty_lines)
  );

  data_ram #(.LINES(8), .DW(8)) u_data (
      .clk, .rst_n, .rd_idx(idx), .rd_data(d_rdata), .we(d_we), .wr_idx(idx), .wr_data(d_wdata)
  );

  logic tag_eq;
  assign tag_eq    = (t_tag == r_tag);
  assign hit       = t_valid & tag_eq;
  assign req_ready = (state == IDLE) && !flush;

  // Array writes.
  always_comb begin
    t_we     = 1'b0;
    t_wvalid = 1'b0;
    t_wdirty = 1'b0;
    t_wtag   = r_tag;
    d_we     = 1'b0;
    d_wdata  = r_wdata;
    case (state)
      COMPARE: if (hit && r_we) begin
        t_we = 1'b1; t_wvalid = 1'b1; t_wdirty = 1'b1;
        d_we = 1'b1;
      end
      FILL_WAIT: if (mem_rvalid) begin
        t_we = 1'b1; t_wvalid = !mem_err; t_wdirty = 1'b0;
        d_we = !mem_err; d_wdata = mem_rdata;
      end
      FLUSH_SCAN: if (t_valid && !t_dirty) begin
        t_we = 1'b1; t_wvalid = 1'b0; t_wdirty = 1'b0; t_wtag = t_tag;
      end
      FLUSH_WB: if (mem_ready) begin
        t_we = 1'b1; t_wvalid = 1'b0; t_wdirty = 1'b0; t_wtag = t_tag;
      end
      default: ;
    endcase
  end

  // Memory requests.
  always_comb begin
    mem_valid = 1'b0;
    mem_we    = 1'b0;
    mem_addr  = r_addr;
    mem_wdata = d_rdata;
    case (state)
      WB, FLUSH_WB: begin
        mem_valid = 1'b1;
        mem_we    = 1'b1;
        mem_addr  = {t_tag, idx};
      end
      FILL: mem_valid = 1'b1;
      default: ;
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state      <= IDLE;
      r_we       <= 1'b0;
      r_missed   <= 1'b0;
      r_addr     <= '0;
      r_wdata    <= '0;
      fl_idx     <= '0;
      resp_valid <= 1'b0;
      resp_rdata <= '0;
      resp_hit   <= 1'b0;
      resp_err   <= 1'b0;
      flush_done <= 1'b0;
      hit_count  <= '0;
      miss_count <= '0;
    end else begin
      resp_valid <= 1'b0;
      flush_done <= 1'b0;
      case (state)
        IDLE: begin
          if (flush) begin
            fl_idx <= '0;
            state  <= FLUSH_SCAN;
          end else if (req_valid) begin
            r_we     <= req_we;
            r_addr   <= req_addr;
            r_wdata  <= req_wdata;
            r_missed <= 1'b0;
            state    <= COMPARE;
          end
        end
        COMPARE: begin
          if (hit) begin
            resp_valid <= 1'b1;
            resp_rdata <= r_we ? r_wdata : d_rdata;
            resp_hit   <= !r_missed;
            resp_err   <= 1'b0;
            if (!r_missed && hit_count != 8'hFF) hit_count <= hit_count + 1'b1;
            state <= IDLE;
          end else begin
            r_missed <= 1'b1;
            if (miss_count != 8'hFF) miss_count <= miss_count + 1'b1;
            state <= (t_valid && t_dirty) ? WB : FILL;
          end
        end
        WB:   if (mem_ready) state <= FILL;
        FILL: if (mem_ready) state <= FILL_WAIT;
        FILL_WAIT: if (mem_rvalid) begin
          if (mem_err) begin
            resp_valid <= 1'b1;
            resp_rdata <= 8'h00;
            resp_hit   <= 1'b0;
            resp_err   <= 1'b1;
            state      <= IDLE;
          end else begin
            state <= COMPARE;
          end
        end
        FLUSH_SCAN: begin
          if (t_valid && t_dirty) begin
            state <= FLUSH_WB;
          end else if (fl_idx == 3'd7) begin
            flush_done <= 1'b1;
            state      <= IDLE;
          end else begin
            fl_idx <= fl_idx + 1'b1;
          end
        end
        default: if (mem_ready) state <= FLUSH_SCAN;  // FLUSH_WB
      endcase
    end
  end
endmodule
