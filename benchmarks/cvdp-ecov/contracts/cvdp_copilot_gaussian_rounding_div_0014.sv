// Interface contract of divider (cvdp gaussian_rounding_div_0014, issue 22): in-range divisor and dividend
// while start is high, inputs stable until the result is valid. A port-level mirror of the spec's FSM (IDLE -> BUSY for WIDTH cycles -> DONE until start is low) tells when an operation runs.
module ecov_contract #(parameter WIDTH = 32) (
    input logic clk, input logic rst_n, input logic start,
    input logic [WIDTH-1:0] dividend, input logic [WIDTH-1:0] divisor,
    input logic [WIDTH-1:0] quotient, input logic [WIDTH-1:0] remainder, input logic valid);
  localparam logic [1:0] IDLE = 2'd0, BUSY = 2'd1, DONE = 2'd2;
  localparam logic [WIDTH-1:0] DIVISOR_LIMIT = (WIDTH'(1) << (WIDTH - 1)) - WIDTH'(1);
  logic [1:0] st;
  int unsigned n;
  logic [WIDTH-1:0] a_q, b_q;
  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin `ECOV_COVER(reset_during_division, st == BUSY) st <= IDLE; n <= 0; end
    else case (st)
      IDLE: if (start) begin st <= BUSY; n <= WIDTH; a_q <= dividend; b_q <= divisor; end
      BUSY: begin n <= n - 1; if (n == 1) st <= DONE; end
      default: if (!start) st <= IDLE;
    endcase
  end
  // rules
  always @(posedge clk) if (rst_n) begin
    // value ranges, whenever start says valid inputs are available: 0 < divisor < 2^(WIDTH-1)-1,
    // dividend < 2^WIDTH-1
    if (start && (divisor == '0 || divisor >= DIVISOR_LIMIT)) `ECOV_VIOLATION(divisor_in_range)
    else if (start && dividend == '1) `ECOV_VIOLATION(dividend_in_range)
    else if (st != IDLE && !valid && (dividend != a_q || divisor != b_q)) `ECOV_VIOLATION(inputs_stable_until_complete)
  end
  // bins
  always @(posedge clk) if (rst_n) begin
    `ECOV_COVER(zero_dividend, st == IDLE && start && dividend == 0)
    `ECOV_COVER(divisor_one, st == IDLE && start && divisor == 1)
    `ECOV_COVER(largest_dividend, st == IDLE && start && dividend == '1 - 1)
    `ECOV_COVER(largest_divisor, st == IDLE && start && divisor == DIVISOR_LIMIT - 1)
    `ECOV_COVER(quotient_zero_remainder_dividend, valid && quotient == 0 && remainder != 0)
    `ECOV_COVER(exact_division, valid && quotient != 0 && remainder == 0)
    `ECOV_COVER(done_held_while_start_high, st == DONE && valid && start)
    `ECOV_COVER(return_to_idle, valid && !start)
  end
endmodule
