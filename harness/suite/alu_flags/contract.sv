// Interface contract of alu_flags (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic [7:0] a, input logic [7:0] b, input logic cin, input logic [3:0] op,
    input logic sat, input logic [7:0] y, input logic zero, input logic carry, input logic ovf,
    input logic illegal, input logic div_zero);
  always @* begin
    `ECOV_COVER(adc_with_carry_in, op == 4'd1 && cin)
    `ECOV_COVER(sbb_with_borrow_in, op == 4'd3 && cin)
    `ECOV_COVER(saturated_overflow, sat && ovf && op <= 4'd3)
    `ECOV_COVER(unsaturated_overflow, !sat && ovf && op <= 4'd3)
    `ECOV_COVER(cmp_equal, op == 4'd12 && a == b)
    `ECOV_COVER(shift_by_zero, (op == 4'd8 || op == 4'd9 || op == 4'd10) && b[2:0] == 3'd0)
    `ECOV_COVER(div_by_zero, op == 4'd14 && b == 8'd0)
    `ECOV_COVER(div_min_by_minus_one, op == 4'd14 && a == 8'h80 && b == 8'hFF)
    `ECOV_COVER(illegal_op, op == 4'd15)
  end
endmodule
