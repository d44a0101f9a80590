// SPDX-License-Identifier: Apache-2.0
// I2C-style register target at 7-bit address 0x3A: a pointer byte selects one of four registers
// (0..2 read/write, 3 a read-only ID); writes and reads auto-increment the pointer. SDA is open
// drain: sda_oe = 1 pulls the line low.
module i2c_target (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       scl,
    input  logic       sda,
    output logic       sda_oe,
    output logic [7:0] reg0,
    output logic [7:0] reg1,
    output logic [7:0] reg2,
    output logic       busy,
    output logic       err
);
  localparam logic [6:0] DEV_ADDR = 7'h3A;
  localparam logic [7:0] DEV_ID = 8'hC4;

  typedef enum logic [2:0] {IDLE, ADDR, ADDR_ACK, WR_BYTE, WR_ACK, RD_BYTE, RD_ACK} state_t;

  state_t     state;
  logic       sda_s, start, stop, scl_rise, scl_fall;
  logic [6:0] shreg;
  logic [7:0] byte_in, rdata;
  logic [2:0] bitcnt;
  logic [1:0] ptr;
  logic       rw, first, ack, ack_phase;

  i2c_cond u_cond (.clk, .rst_n, .scl, .sda, .sda_s, .start, .stop, .scl_rise, .scl_fall);

  assign byte_in = {shreg[6:0], sda_s};
  assign busy    = (state != IDLE);

  always_comb begin
    case (ptr)
      2'd0:    rdata = reg0;
      2'd1:    rdata = reg1;
      2'd2:    rdata = reg2;
      default: rdata = DEV_ID;
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state     <= IDLE;
      shreg     <= '0;
      bitcnt    <= '0;
      ptr       <= '0;
      rw        <= 1'b0;
      first     <= 1'b0;
      ack       <= 1'b0;
      ack_phase <= 1'b0;
      sda_oe    <= 1'b0;
      reg0      <= '0;
      reg1      <= '0;
      reg2      <= '0;
      err       <= 1'b0;
    end else if (stop) begin
      state  <= IDLE;
      sda_oe <= 1'b0;
    end else if (start) begin
      state  <= ADDR;
      bitcnt <= '0;
      sda_oe <= 1'b0;
    end else begin
      case (state)
        IDLE: ;
        ADDR: if (scl_rise) begin
          shreg  <= byte_in[6:0];
          bitcnt <= bitcnt + 1'b1;
          if (bitcnt == 3'd7) begin
            ack_phase <= 1'b0;
            rw        <= sda_s;
            state     <= (shreg[6:0] == DEV_ADDR) ? ADDR_ACK : IDLE;
          end
        end
        ADDR_ACK: if (scl_fall) begin
          if (!ack_phase) begin
            sda_oe    <= 1'b1;
            ack_phase <= 1'b1;
          end else if (rw) begin
            shreg  <= rdata[6:0];
            sda_oe <= !rdata[7];
            bitcnt <= '0;
            state  <= RD_BYTE;
          end else begin
            sda_oe <= 1'b0;
            bitcnt <= '0;
            first  <= 1'b1;
            state  <= WR_BYTE;
          end
        end
        WR_BYTE: if (scl_rise) begin
          shreg  <= byte_in[6:0];
          bitcnt <= bitcnt + 1'b1;
          if (bitcnt == 3'd7) begin
            first     <= 1'b0;
            ack_phase <= 1'b0;
            state     <= WR_ACK;
            if (first) begin
              ack <= (byte_in < 8'd4);
              if (byte_in < 8'd4) ptr <= byte_in[1:0];
              else err <= 1'b1;
            end else if (ptr == 2'd3) begin
              ack <= 1'b0;
              err <= 1'b1;
            end else begin
              ack <= 1'b1;
              ptr <= ptr + 1'b1;
              case (ptr)
                2'd0:    reg0 <= byte_in;
                2'd1:    reg1 <= byte_in;
                default: reg2 <= byte_in;
              endcase
            end
          end
        end
        WR_ACK: if (scl_fall) begin
          if (!ack_phase) begin
            sda_oe    <= ack;
            ack_phase <= 1'b1;
          end else begin
            sda_oe <= 1'b0;
            bitcnt <= '0;
            state  <= ack ? WR_BYTE : IDLE;
          end
        end
        RD_BYTE: if (scl_fall) begin
          bitcnt <= bitcnt + 1'b1;
          if (bitcnt == 3'd7) begin
            sda_oe    <= 1'b0;
            ack_phase <= 1'b0;
            ptr       <= ptr + 1'b1;
            state     <= RD_ACK;
          end else begin
            shreg  <= {shreg[5:0], 1'b0};
            sda_oe <= !shreg[6];
          end
        end
        default: begin  // RD_ACK: the controller acknowledges (SDA low) to read on
          if (scl_rise) begin
            ack_phase <= 1'b1;
            if (sda_s) state <= IDLE;
          end else if (scl_fall && ack_phase) begin
            shreg  <= rdata[6:0];
            sda_oe <= !rdata[7];
            bitcnt <= '0;
            state  <= RD_BYTE;
          end
        end
      endcase
    end
  end
endmodule
