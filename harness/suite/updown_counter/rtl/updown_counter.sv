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
    output logic             wrapped,
    output logic             diag
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

  // Diagnostic unlock (load with sat high): K (K[1:0] = 2'b01), ~K, K+1, ~(K+1) on `load_val`
  // in four consecutive cycles; anything else restarts the key. `diag` is sticky until reset.
  logic [1:0]       key_step;
  logic [WIDTH-1:2] key_hi;  // the upper bits of K (K[1:0] is always 2'b01)
  logic             key_hit;

  always_comb begin
    case (key_step)
      2'd1:    key_hit = (load_val == ~{key_hi, 2'b01});
      2'd2:    key_hit = (load_val == {key_hi, 2'b01} + 1'b1);
      2'd3:    key_hit = (load_val == ~({key_hi, 2'b01} + 1'b1));
      default: key_hit = (load_val[1:0] == 2'b01);
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      key_step <= 2'd0;
      key_hi   <= '0;
      diag     <= 1'b0;
    end else if (load && sat && key_hit) begin
      if (key_step == 2'd0) key_hi <= load_val[WIDTH-1:2];
      if (key_step == 2'd3) diag <= 1'b1;
      key_step <= key_step + 2'd1;
    end else begin
      key_step <= 2'd0;
    end
  end
endmodule
