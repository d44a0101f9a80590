// SPDX-License-Identifier: Apache-2.0
// Reference testbench for alu: every op over corner operands plus random, against a model.
module tb;
  logic [7:0] a, b, y;
  logic cin, sat, zero, neg, carry, ovf, illegal, div_zero;
  logic [3:0] op;
  int errors = 0;

  alu u_alu (.*);

  task automatic check();
    logic [8:0] s;
    logic [7:0] r, fr;
    logic c, v, ill, dz;
    int sh;
    s = 0; c = 0; v = 0; ill = 0; dz = 0; sh = int'(b[2:0]);
    case (op)
      0, 1: begin s = a + b + ((op == 1) ? cin : 0); r = s[7:0]; c = s[8];
                  v = (a[7] == b[7]) && (r[7] != a[7]); end
      2, 3, 12: begin s = {1'b0, a} - {1'b0, b} - ((op == 3) ? cin : 0); r = s[7:0]; c = s[8];
                  v = (a[7] != b[7]) && (r[7] != a[7]); end
      4: r = a & b;
      5: r = a | b;
      6: r = a ^ b;
      7: r = ~a;
      8: begin r = a << sh; c = sh != 0 && a[8 - sh]; end
      9: begin r = a >> sh; c = sh != 0 && a[sh - 1]; end
      10: begin r = 8'($signed(a) >>> sh); c = sh != 0 && a[sh - 1]; end
      11: r = 8'({a, a} >> (8 - sh));
      13: r = {7'b0, $signed(a) < $signed(b)};
      14: begin
        if (b == 0) begin r = 0; dz = 1; end
        else if (a == 8'h80 && b == 8'hFF) begin r = 8'h80; v = 1; end
        else r = 8'(int'($signed(a)) / int'($signed(b)));
      end
      default: begin r = 0; ill = 1; end
    endcase
    if (sat && v && op <= 3) r = a[7] ? 8'h80 : 8'h7F;
    fr = r;
    if (op == 12) r = a;
    #1;
    if (y !== r || carry !== c || ovf !== v || illegal !== ill || div_zero !== dz || zero !== (fr == 0) || neg !== fr[7]) begin
      errors++;
      $error("op=%0d a=%h b=%h cin=%b sat=%b: y=%h(%h) c=%b(%b) v=%b(%b) z=%b n=%b", op, a, b, cin, sat,
             y, r, carry, c, ovf, v, zero, neg);
    end
  endtask

  task automatic apply(input logic [3:0] o, input logic [7:0] x, input logic [7:0] z,
                       input logic ci, input logic s);
    op = o; a = x; b = z; cin = ci; sat = s;
    check();
  endtask

  logic [7:0] corners[8] = '{8'h00, 8'h01, 8'h7F, 8'h80, 8'hFF, 8'h55, 8'hAA, 8'hFE};

  initial begin
    for (int o = 0; o < 16; o++)
      foreach (corners[i])
        foreach (corners[j])
          for (int k = 0; k < 4; k++) apply(4'(o), corners[i], corners[j], k[0], k[1]);
    for (int o = 8; o < 12; o++)                  // every shift amount
      for (int s = 0; s < 8; s++) begin
        apply(4'(o), 8'h81, 8'(s), 0, 0);
        apply(4'(o), 8'h7E, 8'(s), 0, 0);
      end
    repeat (2000) apply(4'($urandom_range(0, 15)), 8'($urandom), 8'($urandom), 1'($urandom), 1'($urandom));
    if (errors == 0) $display("PASS"); else $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule
