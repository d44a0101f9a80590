// Interface contract of signedadder (cvdp signed_adder_0003, issue 22): i_start is pulsed only while the
// FSM (o_status) is in IDLE.
module ecov_contract #(parameter DATA_WIDTH = 8) (
    input logic i_clk, input logic i_rst_n, input logic i_start, input logic i_enable, input logic i_mode,
    input logic i_clear, input logic [DATA_WIDTH-1:0] i_operand_a, input logic [DATA_WIDTH-1:0] i_operand_b,
    input logic [DATA_WIDTH-1:0] o_resultant_sum, input logic o_overflow, input logic o_ready, input logic [1:0] o_status);
  always @(posedge i_clk) if (i_rst_n) begin
    if (i_start && o_status != 2'b00) `ECOV_VIOLATION(start_only_in_idle)
  end
  always @(posedge i_clk) if (i_rst_n) begin
    `ECOV_COVER(add_started, i_start && i_enable && !i_clear && o_status == 2'b00 && !i_mode)
    `ECOV_COVER(sub_started, i_start && i_enable && !i_clear && o_status == 2'b00 && i_mode)
    `ECOV_COVER(start_ignored_disabled, i_start && !i_enable && o_status == 2'b00)
    `ECOV_COVER(result_ready, o_ready)
    `ECOV_COVER(overflow, o_ready && o_overflow)
    `ECOV_COVER(clear_mid_operation, i_clear && o_status != 2'b00)
    `ECOV_COVER(opposite_signs, i_start && i_enable && o_status == 2'b00 && i_operand_a[DATA_WIDTH-1] != i_operand_b[DATA_WIDTH-1])
  end
endmodule
