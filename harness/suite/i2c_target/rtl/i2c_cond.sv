// SPDX-License-Identifier: Apache-2.0
// Synchronises SCL and SDA into the clk domain and detects bus events: START (SDA falls while SCL
// is high), STOP (SDA rises while SCL is high) and the SCL edges.
module i2c_cond (
    input  logic clk,
    input  logic rst_n,
    input  logic scl,
    input  logic sda,
    output logic sda_s,
    output logic start,
    output logic stop,
    output logic scl_rise,
    output logic scl_fall
);
  logic [1:0] scl_sync, sda_sync;
  logic       scl_q, sda_q, scl_s;

  assign scl_s = scl_sync[1];
  assign sda_s = sda_sync[1];

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      scl_sync <= 2'b11;
      sda_sync <= 2'b11;
      scl_q    <= 1'b1;
      sda_q    <= 1'b1;
    end else begin
      scl_sync <= {scl_sync[0], scl};
      sda_sync <= {sda_sync[0], sda};
      scl_q    <= scl_s;
      sda_q    <= sda_s;
    end
  end

  assign start    = scl_s && scl_q && sda_q && !sda_s;
  assign stop     = scl_s && scl_q && !sda_q && sda_s;
  assign scl_rise = scl_s && !scl_q;
  assign scl_fall = !scl_s && scl_q;
endmodule
