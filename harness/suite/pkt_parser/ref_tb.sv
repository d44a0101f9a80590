// SPDX-License-Identifier: Apache-2.0
// Reference testbench for pkt_parser: well-formed packets for every command, checksum and length
// errors, statistics saturation and clearing, gaps in in_valid, a mid-run reset and random
// packets, checked against a byte-level model of the specification.
module tb;
  logic       clk = 0, rst_n = 0;
  logic       in_valid = 0, clr_stats = 0;
  logic [7:0] in_data = 0;
  logic       pkt_good, pkt_bad, len_err, cmd_err;
  logic [7:0] reg_a, reg_b, resp;
  logic [3:0] good_cnt, bad_cnt, len_cnt;
  logic [2:0] state_o;

  pkt_parser dut (.*);

  always #5 clk = ~clk;

  logic [7:0] garbage[6] = '{8'h00, 8'hff, 8'h5a, 8'ha4, 8'ha6, 8'h13};

  // Model state.
  int m_st = 0, m_plen = 0, m_idx = 0, errors = 0;
  logic [7:0] m_op = 0, m_arg = 0, m_chk1 = 0, m_s1 = 0, m_s2 = 0;
  logic [7:0] m_a = 0, m_b = 0, m_resp = 0;
  logic [3:0] m_good = 0, m_bad = 0, m_len = 0;
  logic m_cmderr = 0, e_good = 0, e_bad = 0, e_len = 0;

  function automatic logic [3:0] sat(input logic [3:0] v);
    return v == 4'hf ? v : v + 1'b1;
  endfunction

  task automatic model_reset();
    m_st = 0; m_plen = 0; m_idx = 0; m_op = 0; m_arg = 0; m_chk1 = 0; m_s1 = 0; m_s2 = 0;
    m_a = 0; m_b = 0; m_resp = 0; m_good = 0; m_bad = 0; m_len = 0; m_cmderr = 0;
  endtask

  task automatic check();
    if (pkt_good !== e_good || pkt_bad !== e_bad || len_err !== e_len || cmd_err !== m_cmderr
        || reg_a !== m_a || reg_b !== m_b || resp !== m_resp || good_cnt !== m_good
        || bad_cnt !== m_bad || len_cnt !== m_len || state_o !== 3'(m_st)) begin
      errors++;
      $error("mismatch: st=%0d/%0d good=%b/%b bad=%b/%b len=%b/%b cnt=%0d,%0d,%0d/%0d,%0d,%0d",
             state_o, m_st, pkt_good, e_good, pkt_bad, e_bad, len_err, e_len, good_cnt, bad_cnt,
             len_cnt, m_good, m_bad, m_len);
    end
  endtask

  // One clock cycle with the given inputs; the model follows the specification.
  task automatic cycle(input logic v, input logic [7:0] d, input logic clr);
    in_valid = v; in_data = d; clr_stats = clr;
    @(posedge clk); #1;
    e_good = 0; e_bad = 0; e_len = 0;
    if (v) begin
      case (m_st)
        0: if (d == 8'hA5) begin m_st = 1; m_s1 = 0; m_s2 = 0; end
           else begin m_s1 = 0; m_s2 = 0; end
        1: if (d == 0 || d > 8) begin e_len = 1; m_len = sat(m_len); m_st = 0; end
           else begin
             m_plen = d; m_idx = 0; m_st = 2; m_s1 += d; m_s2 += m_s1;
           end
        2: begin
          if (m_idx == 0) m_op = d;
          if (m_idx == 1) m_arg = d;
          m_idx++; m_s1 += d; m_s2 += m_s1;
          if (m_idx == m_plen) m_st = 3;
        end
        3: begin m_chk1 = d; m_st = 4; end
        default: begin
          m_st = 0;
          if (m_chk1 == m_s1 && d == m_s2) begin
            e_good = 1; m_good = sat(m_good);
            case (m_op)
              1: if (m_plen >= 2) m_a = m_arg; else m_cmderr = 1;
              2: if (m_plen >= 2) m_b = m_arg; else m_cmderr = 1;
              3: begin m_good = 0; m_bad = 0; m_len = 0; end
              4: m_resp = m_a ^ m_b;
              5: m_resp = m_a + m_b;
              default: m_cmderr = 1;
            endcase
          end else begin
            e_bad = 1; m_bad = sat(m_bad);
          end
        end
      endcase
    end
    if (clr) begin m_good = 0; m_bad = 0; m_len = 0; m_cmderr = 0; end
    check();
  endtask

  task automatic put(input logic [7:0] d);
    cycle(1'b1, d, 1'b0);
  endtask

  // A packet with the given payload; corrupt != 0 is XORed into the second checksum byte.
  // gap inserts idle cycles after every byte.
  task automatic send(input logic [7:0] payload[], input logic [7:0] corrupt = 0,
                      input int gap = 0);
    logic [7:0] s1, s2;
    s1 = 8'(payload.size()); s2 = s1;
    foreach (payload[i]) begin s1 += payload[i]; s2 += s1; end
    put(8'hA5);
    repeat (gap) cycle(1'b0, 8'h5A, 1'b0);
    put(8'(payload.size()));
    foreach (payload[i]) begin
      put(payload[i]);
      repeat (gap) cycle(1'b0, $urandom, 1'b0);
    end
    put(s1);
    put(s2 ^ corrupt);
  endtask

  task automatic idle(input int n);
    repeat (n) cycle(1'b0, $urandom, 1'b0);
  endtask

  initial begin
    repeat (2) @(posedge clk);
    rst_n = 1; #1;
    idle(2);
    // Every command, with all-ones and all-zeros arguments.
    send('{8'h01, 8'hff});
    send('{8'h02, 8'h00});
    send('{8'h04});
    send('{8'h05, 8'h12, 8'h34});
    send('{8'h02, 8'hff}, 0, 2);
    send('{8'h01, 8'h00, 8'h00, 8'h00});
    send('{8'h04});
    send('{8'h01, 8'h7f});
    send('{8'h02, 8'h80});
    send('{8'h05});
    send('{8'h01, 8'h80});
    send('{8'h05});                          // 0x80 + 0x80 wraps to 0
    send('{8'h01});                          // write without an argument: command error
    clr_stats = 1; cycle(1'b0, 0, 1'b1);
    send('{8'h02});
    cycle(1'b0, 0, 1'b1);
    send('{8'hff, 8'hff, 8'hff, 8'hff, 8'hff, 8'hff, 8'hff, 8'hff});  // unknown, longest
    send('{8'h00, 8'h11, 8'h22, 8'h33, 8'h44, 8'h55, 8'h66, 8'h77});
    send('{8'h06});
    send('{8'h03});                          // CLEAR
    // Checksum errors in either byte, up to saturation.
    for (int i = 0; i < 18; i++) begin
      logic [7:0] p[];
      p = new[1 + i % 8];
      foreach (p[j]) p[j] = $urandom;
      send(p, 8'(1 << (i % 8)));
    end
    put(8'hA5); put(8'd1); put(8'h04); put(8'h00); put(8'h04 * 2 + 1);  // wrong first byte
    // Length errors: 0, 9 and 255, up to saturation.
    for (int i = 0; i < 18; i++) begin
      put(8'hA5);
      put(i % 3 == 0 ? 8'd0 : i % 3 == 1 ? 8'd9 : 8'hff);
    end
    // Good packets up to saturation, then clear by command and by clr_stats.
    for (int i = 0; i < 17; i++) send('{8'h04, 8'(i)});
    cycle(1'b0, 0, 1'b1);
    send('{8'h03, 8'hee});
    // Garbage while hunting, then a clr_stats on the cycle a packet completes.
    foreach (garbage[i]) put(garbage[i]);
    put(8'hA5); put(8'd1); put(8'h04); put(8'h05); cycle(1'b1, 8'h06, 1'b1);
    // Mid-packet reset.
    put(8'hA5); put(8'd3); put(8'h01);
    rst_n = 0; #1; model_reset(); e_good = 0; e_bad = 0; e_len = 0; check();
    @(posedge clk); #1; rst_n = 1;
    idle(1);
    // Random packets (mostly good) and random bytes.
    for (int i = 0; i < 200; i++) begin
      logic [7:0] p[];
      p = new[$urandom_range(8, 1)];
      foreach (p[j]) p[j] = (j == 0) ? 8'($urandom_range(6, 0)) : 8'($urandom);
      send(p, ($urandom_range(3) == 0) ? 8'($urandom_range(255, 1)) : 8'h00, $urandom_range(1));
      if ($urandom_range(9) == 0) put($urandom);
    end
    idle(3);
    if (errors == 0) $display("PASS");
    else $display("FAIL: %0d errors", errors);
    $finish;
  end

endmodule
