// Interface contract of gcd_3_ip (cvdp gcd_0028, issue 22): go is a one-cycle pulse, and after a go the
// testbench waits for done before asserting new values (no new go, A/B/C unchanged); rst aborts.
module ecov_contract #(parameter WIDTH = 32) (
    input logic clk, input logic rst, input logic [WIDTH-1:0] A, input logic [WIDTH-1:0] B,
    input logic [WIDTH-1:0] C, input logic go, input logic [WIDTH-1:0] OUT, input logic done);
  logic go_q, busy;
  logic [WIDTH-1:0] a_h, b_h, c_h;
  int since_done;
  wire [WIDTH-1:0] most_neg = {1'b1, {(WIDTH-1){1'b0}}};
  always @(posedge clk) begin
    if (rst) begin
      go_q <= 1'b0; busy <= 1'b0; since_done <= 1000;
    end else begin
      if (go && go_q) `ECOV_VIOLATION(go_one_cycle)
      else if (busy && !done && (go || A != a_h || B != b_h || C != c_h)) `ECOV_VIOLATION(wait_done_before_new_values)
      go_q <= go;
      if (go) begin busy <= 1'b1; a_h <= A; b_h <= B; c_h <= C; end
      else if (done) busy <= 1'b0;
      since_done <= done ? 0 : (since_done < 1000 ? since_done + 1 : since_done);
    end
  end
  // A go the DUT takes: while idle, or on the edge that shows done (issue 32: "new inputs will be fed to the
  // system on the current rising edge of clk following this assertion"; busy clears only after that edge,
  // so bins on `go && !busy` missed every computation started that way).
  wire start = go && (!busy || done);
  always @(posedge clk) begin
    if (!rst) begin
      `ECOV_COVER(all_zero_inputs, start && A == 0 && B == 0 && C == 0)
      `ECOV_COVER(some_zero_input, start && (A == 0 || B == 0 || C == 0) && (A | B | C) != 0)
      `ECOV_COVER(negative_input, start && (A[WIDTH-1] || B[WIDTH-1] || C[WIDTH-1]))
      `ECOV_COVER(most_negative_input, start && (A == most_neg || B == most_neg || C == most_neg))
      `ECOV_COVER(equal_inputs, start && A == B && B == C)
      `ECOV_COVER(done_pulse, done)
      `ECOV_COVER(gcd_greater_than_one, done && OUT > 1)
      `ECOV_COVER(new_inputs_after_done, go && since_done < 3)
    end
    `ECOV_COVER(reset_mid_computation, rst && busy)
  end
endmodule
