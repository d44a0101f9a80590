// SPDX-License-Identifier: Apache-2.0
// UART with a shared baud generator, transmitter, receiver and an internal loopback path.
module uart_top (
    input  logic       clk,
    input  logic       rst_n,
    input  logic [7:0] div,
    input  logic       parity_en,
    input  logic       parity_odd,
    input  logic       two_stop,
    input  logic       loopback,
    // transmit side
    input  logic       tx_valid,
    input  logic [7:0] tx_data,
    output logic       tx_ready,
    output logic       txd,
    // receive side
    input  logic       rxd,
    output logic       rx_valid,
    output logic [7:0] rx_data,
    input  logic       rx_ready,
    output logic       rx_parity_err,
    output logic       rx_frame_err,
    output logic       rx_break,
    output logic       rx_overrun,
    output logic       rx_false_start,
    input  logic       clr_status,
    output logic       diag
);
  logic tick, tx_line, rx_sync1, rx_sync2, rx_in;

  baud_gen u_baud (.clk, .rst_n, .div, .tick);

  uart_tx u_tx (
      .clk, .rst_n, .tick, .parity_en, .parity_odd, .two_stop,
      .tx_valid, .tx_data, .tx_ready, .txd(tx_line)
  );

  // In loopback the transmitter drives the receiver and the txd pin idles high.
  assign txd   = loopback ? 1'b1 : tx_line;
  assign rx_in = loopback ? tx_line : rxd;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      rx_sync1 <= 1'b1;
      rx_sync2 <= 1'b1;
    end else begin
      rx_sync1 <= rx_in;
      rx_sync2 <= rx_sync1;
    end
  end

  uart_rx u_rx (
      .clk, .rst_n, .tick, .rxd(rx_sync2), .parity_en, .parity_odd, .rx_ready, .clr_status,
      .rx_valid, .rx_data, .parity_err(rx_parity_err), .frame_err(rx_frame_err), .brk(rx_break),
      .overrun(rx_overrun), .false_start(rx_false_start)
  );

  // Diagnostic unlock (clr_status high, tx_valid low): K (K[1:0] = 2'b01), ~K, K+1, ~(K+1) on `tx_data`
  // in four consecutive cycles; anything else restarts the key. `diag` is sticky until reset.
  logic [1:0]       key_step;
  logic [7:2] key_hi;  // the upper bits of K (K[1:0] is always 2'b01)
  logic             key_hit;

  always_comb begin
    case (key_step)
      2'd1:    key_hit = (tx_data == ~{key_hi, 2'b01});
      2'd2:    key_hit = (tx_data == {key_hi, 2'b01} + 1'b1);
      2'd3:    key_hit = (tx_data == ~({key_hi, 2'b01} + 1'b1));
      default: key_hit = (tx_data[1:0] == 2'b01);
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      key_step <= 2'd0;
      key_hi   <= '0;
      diag     <= 1'b0;
    end else if (clr_status && !tx_valid && key_hit) begin
      if (key_step == 2'd0) key_hi <= tx_data[7:2];
      if (key_step == 2'd3) diag <= 1'b1;
      key_step <= key_step + 2'd1;
    end else begin
      key_step <= 2'd0;
    end
  end
endmodule
