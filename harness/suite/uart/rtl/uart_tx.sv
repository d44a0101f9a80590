// SPDX-License-Identifier: Apache-2.0
// UART transmitter: start bit, 8 data bits LSB first, optional parity, one or two stop bits.
module uart_tx (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       tick,
    input  logic       parity_en,
    input  logic       parity_odd,
    input  logic       two_stop,
    input  logic       tx_valid,
    input  logic [7:0] tx_data,
    output logic       tx_ready,
    output logic       txd
);
  typedef enum logic [2:0] {IDLE, START, DATA, PARITY, STOP1, STOP2} state_t;

  state_t     state;
  logic [7:0] shreg;
  logic [2:0] tcnt, bitn;
  logic       par;
  logic       bit_end;

  assign bit_end  = tick && (tcnt == 3'd7);
  assign tx_ready = (state == IDLE);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state <= IDLE;
      shreg <= '0;
      tcnt  <= '0;
      bitn  <= '0;
      par   <= 1'b0;
    end else begin
      if (state != IDLE && tick) tcnt <= tcnt + 1'b1;
      case (state)
        IDLE: if (tx_valid) begin
          shreg <= tx_data;
          par   <= (^tx_data) ^ parity_odd;
          tcnt  <= '0;
          state <= START;
        end
        START: if (bit_end) begin
          bitn  <= '0;
          state <= DATA;
        end
        DATA: if (bit_end) begin
          shreg <= {1'b0, shreg[7:1]};
          bitn  <= bitn + 1'b1;
          if (bitn == 3'd7) state <= parity_en ? PARITY : STOP1;
        end
        PARITY: if (bit_end) state <= STOP1;
        STOP1:  if (bit_end) state <= two_stop ? STOP2 : IDLE;
        default: if (bit_end) state <= IDLE;  // STOP2
      endcase
    end
  end

  always_comb begin
    case (state)
      START:   txd = 1'b0;
      DATA:    txd = shreg[0];
      PARITY:  txd = par;
      default: txd = 1'b1;
    endcase
  end
endmodule
