// SPDX-License-Identifier: Apache-2.0
// 8-bit combinational ALU with carry-in, signed division, optional signed saturation and Z/N/C/V flags.
module alu #(
    parameter int W = 8
) (
    input  logic [W-1:0] a,
    input  logic [W-1:0] b,
    input  logic         cin,
    input  logic [3:0]   op,
    input  logic         sat,      // saturate signed overflow of ADD/ADC/SUB/SBB
    output logic [W-1:0] y,
    output logic         zero,
    output logic         neg,
    output logic         carry,
    output logic         ovf,
    output logic         illegal,
    output logic         div_zero   // DIV with b == 0
);
  localparam logic [3:0] OP_ADD = 4'd0, OP_ADC = 4'd1, OP_SUB = 4'd2, OP_SBB = 4'd3,
                         OP_AND = 4'd4, OP_OR = 4'd5, OP_XOR = 4'd6, OP_NOT = 4'd7,
                         OP_SHL = 4'd8, OP_SHR = 4'd9, OP_SAR = 4'd10, OP_ROL = 4'd11,
                         OP_CMP = 4'd12, OP_SLT = 4'd13, OP_DIV = 4'd14;

  logic [W:0]   sum;
  logic [W-1:0] res;
  logic [2:0]   sh;
  logic         arith;
  logic [W-1:0] flag_res;  // what Z and N look at: the result, or the difference for CMP

  assign sh = b[2:0];

  always_comb begin
    sum      = '0;
    res      = '0;
    carry    = 1'b0;
    ovf      = 1'b0;
    arith    = 1'b0;
    illegal  = 1'b0;
    div_zero = 1'b0;
    case (op)
      OP_ADD, OP_ADC: begin
        sum   = {1'b0, a} + {1'b0, b} + {{W{1'b0}}, (op == OP_ADC) & cin};
        res   = sum[W-1:0];
        carry = sum[W];
        ovf   = ~(a[W-1] ^ b[W-1]) & (res[W-1] ^ a[W-1]);
        arith = 1'b1;
      end
      OP_SUB, OP_SBB, OP_CMP: begin
        sum   = {1'b0, a} - {1'b0, b} - {{W{1'b0}}, (op == OP_SBB) & cin};
        res   = sum[W-1:0];
        carry = sum[W];  // borrow
        ovf   = (a[W-1] ^ b[W-1]) & (res[W-1] ^ a[W-1]);
        arith = (op != OP_CMP);
      end
      OP_AND: res = a & b;
      OP_OR:  res = a | b;
      OP_XOR: res = a ^ b;
      OP_NOT: res = ~a;
      OP_SHL: begin
        res   = a << sh;
        carry = (sh != 0) && a[W - int'(sh)];
      end
      OP_SHR: begin
        res   = a >> sh;
        carry = (sh != 0) && a[int'(sh) - 1];
      end
      OP_SAR: begin
        res   = W'($signed(a) >>> sh);
        carry = (sh != 0) && a[int'(sh) - 1];
      end
      OP_ROL: res = (a << sh) | (a >> (W - int'(sh)));
      OP_SLT: res = {{(W-1){1'b0}}, $signed(a) < $signed(b)};
      OP_DIV: begin  // signed, truncating toward zero
        if (b == '0) begin
          div_zero = 1'b1;
        end else if (a == {1'b1, {(W-1){1'b0}}} && b == {W{1'b1}}) begin
          res = a;     // -2^(W-1) / -1 does not fit
          ovf = 1'b1;
        end else begin
          res = W'($signed(a) / $signed(b));
        end
      end
      default: illegal = 1'b1;
    endcase
    if (sat && arith && ovf) res = a[W-1] ? {1'b1, {(W-1){1'b0}}} : {1'b0, {(W-1){1'b1}}};
    flag_res = res;
    if (op == OP_CMP) res = a;  // compare leaves the operand unchanged, flags from a - b
  end

  assign y    = res;
  assign zero = (flag_res == '0);
  assign neg  = flag_res[W-1];
endmodule
