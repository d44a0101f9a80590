// SPDX-License-Identifier: Apache-2.0
// UART receiver: samples mid-bit at 8x oversampling, checks parity and stop bit, flags break,
// false starts and overrun.
module uart_rx (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       tick,
    input  logic       rxd,          // already synchronised
    input  logic       parity_en,
    input  logic       parity_odd,
    input  logic       rx_ready,
    input  logic       clr_status,
    output logic       rx_valid,
    output logic [7:0] rx_data,
    output logic       parity_err,
    output logic       frame_err,
    output logic       brk,
    output logic       overrun,
    output logic       false_start
);
  typedef enum logic [2:0] {IDLE, START, DATA, PARITY, STOP, WAIT_HIGH} state_t;

  state_t     state;
  logic [7:0] shreg;
  logic [2:0] tcnt, bitn;
  logic       par_bit;
  logic       mid_start, bit_mid;

  assign mid_start = tick && (tcnt == 3'd3);
  assign bit_mid   = tick && (tcnt == 3'd7);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state       <= IDLE;
      shreg       <= '0;
      tcnt        <= '0;
      bitn        <= '0;
      par_bit     <= 1'b0;
      rx_valid    <= 1'b0;
      rx_data     <= '0;
      parity_err  <= 1'b0;
      frame_err   <= 1'b0;
      brk         <= 1'b0;
      overrun     <= 1'b0;
      false_start <= 1'b0;
    end else begin
      if (rx_valid && rx_ready) rx_valid <= 1'b0;
      if (clr_status) begin
        overrun     <= 1'b0;
        false_start <= 1'b0;
      end
      if (tick) tcnt <= tcnt + 1'b1;
      case (state)
        IDLE: if (!rxd) begin
          tcnt  <= '0;
          state <= START;
        end
        START: if (mid_start) begin
          tcnt <= '0;
          bitn <= '0;
          if (rxd) begin
            false_start <= 1'b1;  // glitch shorter than half a bit
            state       <= IDLE;
          end else begin
            state <= DATA;
          end
        end
        DATA: if (bit_mid) begin
          shreg <= {rxd, shreg[7:1]};
          bitn  <= bitn + 1'b1;
          if (bitn == 3'd7) state <= parity_en ? PARITY : STOP;
        end
        PARITY: if (bit_mid) begin
          par_bit <= rxd;
          state   <= STOP;
        end
        STOP: if (bit_mid) begin
          rx_data    <= shreg;
          rx_valid   <= 1'b1;
          frame_err  <= !rxd;
          brk        <= !rxd && (shreg == 8'h00) && !(parity_en && par_bit);
          parity_err <= parity_en && ((^shreg) ^ par_bit ^ parity_odd);
          if (rx_valid && !rx_ready) overrun <= 1'b1;
          state <= rxd ? IDLE : WAIT_HIGH;
        end
        default: if (rxd) state <= IDLE;  // WAIT_HIGH
      endcase
    end
  end
endmodule
