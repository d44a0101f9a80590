// SPDX-License-Identifier: Apache-2.0
// Up/down counter with synchronous load, enable and optional saturation.
module updown_counter #(
    parameter int WIDTH = 8
) (
    input  logic             clk,
    input  logic             rst_n,
    input  logic             en,
    input  logic             up,
    input  logic             load,
    input  logic [WIDTH-1:0] load_val,
    input  logic             sat,
    output logic [WIDTH-1:0] count,
    output logic             at_max,
    output logic             at_min,
    output logic             wrapped
);
  localparam logic [WIDTH-1:0] MAX = {WIDTH{1'b1}};
  localparam logic [WIDTH-1:0] MIN = '0;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      count   <= MIN;
      wrapped <= 1'b0;
    end else begin
      wrapped <= 1'b0;
      if (load) begin
        count <= load_val;
      end else if (en) begin
        if (up) begin
          if (count == MAX) begin
            if (!sat) begin
              count   <= MIN;
              wrapped <= 1'b1;
            end
          end else begin
            count <= count + 1'b1;
          end
        end else begin
          if (count == MIN) begin
            if (!sat) begin
              count   <= MAX;
              wrapped <= 1'b1;
            end
          end else begin
            count <= count - 1'b1;
          end
        end
      end
    end
  end

  assign at_max = (count == MAX);
  assign at_min = (count == MIN);
endmodule
