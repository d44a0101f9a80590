// SPDX-License-Identifier: Apache-2.0
// Reference testbench for frame_crc: good frames of every type and length, each error kind
// (misaligned, runt, length, CRC, abort by a new sof), gaps in bit_valid, counter saturation and
// clearing, bit counter saturation and a mid-run reset, checked against a frame-level model.
module tb;
  logic       clk = 0, rst_n = 0;
  logic       sof = 0, eof = 0, bit_valid = 0, din = 0, clr = 0;
  logic       frame_ok, frame_err, pong, type_err;
  logic [2:0] err_code;
  logic [3:0] ok_cnt, err_cnt;
  logic [7:0] last_data, ctrl_reg;

  frame_crc dut (.*);

  always #5 clk = ~clk;

  logic [2:0] m_code = 0;
  logic [3:0] m_ok = 0, m_err = 0;
  logic [7:0] m_data = 0, m_ctrl = 0;
  logic       m_type_err = 0, m_in_frame = 0;
  int         errors = 0;

  function automatic logic [7:0] crc8(input logic [7:0] bytes[]);
    logic [7:0] c = 8'hff;
    foreach (bytes[i])
      for (int b = 7; b >= 0; b--) c = {c[6:0], 1'b0} ^ ((c[7] ^ bytes[i][b]) ? 8'h07 : 8'h00);
    return c;
  endfunction

  task automatic tick(input logic s, input logic e, input logic v, input logic d,
                      input logic c = 0);
    sof = s; eof = e; bit_valid = v; din = d; clr = c;
    @(posedge clk); #1;
    sof = 0; eof = 0; bit_valid = 0; clr = 0;
  endtask

  task automatic expect_out(input logic ok, input logic err, input logic pg);
    if (frame_ok !== ok || frame_err !== err || pong !== pg || err_code !== m_code
        || ok_cnt !== m_ok || err_cnt !== m_err || last_data !== m_data || ctrl_reg !== m_ctrl
        || type_err !== m_type_err) begin
      errors++;
      $error("ok=%b/%b err=%b/%b pong=%b/%b code=%0d/%0d cnt=%0d,%0d/%0d,%0d data=%h/%h ctrl=%h/%h",
             frame_ok, ok, frame_err, err, pong, pg, err_code, m_code, ok_cnt, m_ok, err_cnt, m_err,
             last_data, m_data, ctrl_reg, m_ctrl);
    end
  endtask

  function automatic logic [3:0] sat(input logic [3:0] v);
    return v == 4'hf ? v : v + 1'b1;
  endfunction

  // Sends sof, the bits of `bytes` (MSB first) plus `extra` extra 1 bits, optional idle cycles
  // between bits, then eof; checks the verdict against the model.
  task automatic frame(input logic [7:0] bytes[], input int extra = 0, input int gap = 0);
    int nbits;
    logic [7:0] hdr, pay0;
    nbits = bytes.size() * 8 + extra;
    if (m_in_frame) begin
      m_code = 5; m_err = sat(m_err);
      tick(1, 0, 0, 0);
      expect_out(0, 1, 0);
    end else tick(1, 0, 0, 0);
    foreach (bytes[i])
      for (int b = 7; b >= 0; b--) begin
        tick(0, 0, 1, bytes[i][b]);
        repeat (gap) tick(0, 0, 0, $urandom);
      end
    repeat (extra) tick(0, 0, 1, 1);
    tick(0, 1, $urandom, $urandom);          // a bit on the eof cycle is ignored
    m_in_frame = 0;
    if (nbits > 255) nbits = 255;
    hdr = bytes.size() > 0 ? bytes[0] : 8'h00;
    pay0 = bytes.size() > 1 ? bytes[1] : 8'h00;
    if (nbits % 8 != 0 || nbits < 16 || int'(hdr[5:0]) != nbits / 8 - 2
        || crc8(bytes) != 8'h00) begin
      m_err = sat(m_err);
      m_code = nbits % 8 != 0 ? 1 : nbits < 16 ? 2 : int'(hdr[5:0]) != nbits / 8 - 2 ? 3 : 4;
      expect_out(0, 1, 0);
    end else begin
      m_ok = sat(m_ok); m_code = 0;
      case (hdr[7:6])
        0: if (hdr[5:0] != 0) m_data = pay0;
        1: if (hdr[5:0] == 1) m_ctrl = pay0; else m_type_err = 1;
        2: ;
        default: m_type_err = 1;
      endcase
      expect_out(1, 0, hdr[7:6] == 2);
    end
  endtask

  // A well-formed frame of the given type and payload (the CRC byte appended); corrupt flips CRC bits.
  task automatic good(input logic [1:0] typ, input logic [7:0] payload[], input logic [7:0] corrupt = 0,
                      input int gap = 0);
    logic [7:0] body[], bytes[];
    body = new[payload.size() + 1];
    body[0] = {typ, 6'(payload.size())};
    foreach (payload[i]) body[i + 1] = payload[i];
    bytes = new[body.size() + 1](body);
    bytes[body.size()] = crc8(body) ^ corrupt;
    frame(bytes, 0, gap);
  endtask

  initial begin
    logic [7:0] p[];
    repeat (2) @(posedge clk);
    rst_n = 1; #1;
    tick(0, 1, 1, 1);                        // eof and bits outside a frame are ignored
    tick(0, 0, 1, 0);
    expect_out(0, 0, 0);
    good(0, '{8'hff});
    good(0, '{8'h00, 8'h12});
    good(0, '{});                            // DATA without payload: last_data unchanged
    good(1, '{8'hff});
    good(1, '{8'h00});
    good(1, '{8'h01, 8'h02});                // CTRL must carry exactly one byte
    good(2, '{}, 0, 1);
    good(2, '{8'h55, 8'haa, 8'h0f});
    tick(0, 0, 0, 0, 1); m_ok = 0; m_err = 0; m_type_err = 0; expect_out(0, 0, 0);
    good(3, '{8'h77});                       // reserved type
    p = new[15];
    foreach (p[i]) p[i] = $urandom;
    good(0, p);                              // longest legal frame
    // Each error kind.
    good(0, '{8'h5a}, 8'h01);                // CRC
    good(2, '{8'h01, 8'h02}, 8'h80);
    frame('{8'h02, 8'h11, 8'h22});           // length says 2, has 1
    frame('{8'h3f, 8'h11, 8'h22});
    frame('{8'h40});                         // runt: one byte
    frame('{});                              // empty
    frame('{8'h00, 8'h00}, 3);               // not whole bytes
    frame('{8'h81}, 5);
    p = new[33];
    foreach (p[i]) p[i] = 8'hff;
    frame(p);                                // bit counter saturates at 255
    // Abort: sof inside a frame.
    tick(1, 0, 0, 0); tick(0, 0, 1, 1); tick(0, 0, 1, 0);
    m_in_frame = 1;
    good(1, '{8'h3c});
    tick(1, 0, 0, 0); m_in_frame = 1;
    good(0, '{8'hc3});
    // Saturate both counters; clr on the cycle a verdict is due.
    for (int i = 0; i < 17; i++) good(0, '{8'(i)});
    for (int i = 0; i < 17; i++) frame('{8'(i)});
    tick(1, 0, 0, 0); tick(0, 0, 1, 0); m_in_frame = 1;
    frame('{8'h00});                         // abort with the error counter saturated
    tick(1, 0, 0, 0);
    for (int b = 7; b >= 0; b--) tick(0, 0, 1, b[0]);
    tick(0, 0, 1, 1, 1);                     // clr while in a frame
    m_ok = 0; m_err = 0; m_type_err = 0;
    tick(0, 1, 0, 0);
    m_err = 1; m_code = 1;
    expect_out(0, 1, 0);
    // Random frames: mostly good, some corrupted or truncated.
    for (int i = 0; i < 150; i++) begin
      p = new[$urandom_range(6)];
      foreach (p[j]) p[j] = $urandom;
      case ($urandom_range(5))
        0: good(2'($urandom), p, 8'($urandom_range(255, 1)));
        1: frame(p, $urandom_range(9));
        default: good(2'($urandom), p, 0, $urandom_range(1));
      endcase
    end
    // Mid-frame reset.
    tick(1, 0, 0, 0); tick(0, 0, 1, 1);
    rst_n = 0; #1;
    m_code = 0; m_ok = 0; m_err = 0; m_data = 0; m_ctrl = 0; m_type_err = 0; m_in_frame = 0;
    expect_out(0, 0, 0);
    @(posedge clk); #1; rst_n = 1;
    good(1, '{8'h99});
    if (errors == 0) $display("PASS");
    else $display("FAIL: %0d errors", errors);
    $finish;
  end
endmodule
