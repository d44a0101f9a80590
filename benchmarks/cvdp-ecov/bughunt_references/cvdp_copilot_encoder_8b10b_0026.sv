// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb_encoder_8b10b;
  logic clk_in = 0, reset_in, control_in, disparity_data_in;
  logic [7:0] encoder_in;
  logic disparity_out;
  logic [9:0] encoder_out;

  encoder_8b10b uut (.clk_in(clk_in), .reset_in(reset_in), .control_in(control_in),
    .disparity_data_in(disparity_data_in), .encoder_in(encoder_in),
    .disparity_out(disparity_out), .encoder_out(encoder_out));

  always #5 clk_in = ~clk_in;

  // Checks from the spec, one clock cycle after each symbol: a control symbol among the standard K codes
  // (K28.0-K28.7, K23.7, K27.7, K29.7, K30.7) comes out as its 10-bit code (running disparity -) or the
  // complement (running disparity +), disparity_out telling which; a data symbol's 6-bit and 4-bit groups
  // are entries of the spec's 5b/6b and 3b/4b tables for its low 5 and high 3 bits (D.x.7 may take
  // 8b/10b's alternate 0111/1000, which the spec's table leaves out). Inputs change on
  // falling edges; the symbol sampled at a rising edge is checked 1 ns after it.
  logic [5:0] T6_RD0 [32] = '{6'b100111, 6'b011101, 6'b101101, 6'b110001, 6'b110101, 6'b101001, 6'b011001, 6'b111000, 6'b111001, 6'b100101, 6'b010101, 6'b110100, 6'b001101, 6'b101100, 6'b011100, 6'b010111, 6'b011011, 6'b100011, 6'b010011, 6'b110010, 6'b001011, 6'b101010, 6'b011010, 6'b111010, 6'b110011, 6'b100110, 6'b010110, 6'b110110, 6'b001110, 6'b101110, 6'b011110, 6'b101011};
  logic [5:0] T6_RD1 [32] = '{6'b011000, 6'b100010, 6'b010010, 6'b110001, 6'b001010, 6'b101001, 6'b011001, 6'b000111, 6'b000110, 6'b100101, 6'b010101, 6'b110100, 6'b001101, 6'b101100, 6'b011100, 6'b101000, 6'b100100, 6'b100011, 6'b010011, 6'b110010, 6'b001011, 6'b101010, 6'b011010, 6'b000101, 6'b001100, 6'b100110, 6'b010110, 6'b001001, 6'b001110, 6'b010001, 6'b100001, 6'b010100};
  logic [3:0] T4_RD0 [8] = '{4'b0100, 4'b1001, 4'b0101, 4'b0011, 4'b0010, 4'b1010, 4'b0110, 4'b1110};
  logic [3:0] T4_RD1 [8] = '{4'b1011, 4'b1001, 4'b0101, 4'b1100, 4'b1101, 4'b1010, 4'b0110, 4'b0001};
  function automatic logic [9:0] k_code(input logic [7:0] v);
    case (v)
      8'h1C: return 10'b0011110100;  8'h3C: return 10'b0011111001;  8'h5C: return 10'b0011110101;
      8'h7C: return 10'b0011110011;  8'h9C: return 10'b0011110010;  8'hBC: return 10'b0011111010;
      8'hDC: return 10'b0011110110;  8'hFC: return 10'b0011111000;  8'hF7: return 10'b1110101000;
      8'hFB: return 10'b1101101000;  8'hFD: return 10'b1011101000;  8'hFE: return 10'b0111101000;
      default: return 10'bx;
    endcase
  endfunction
  logic m_k, m_valid = 0;
  logic [7:0] m_in;
  always @(posedge clk_in) begin
    automatic logic k = control_in, rst = reset_in;
    automatic logic [7:0] v = encoder_in;
    m_valid = !rst; m_k = k; m_in = v;
    #1;
    if (m_valid && !reset_in && control_in === m_k) begin
      if (m_k && !$isunknown(k_code(m_in))) begin
        if (!((encoder_out === k_code(m_in) && disparity_out === 1'b0) ||
              (encoder_out === ~k_code(m_in) && disparity_out === 1'b1)))
          $fatal(1, "%0t: K symbol %h -> %b rd %b, expected %b or its complement", $time, m_in, encoder_out,
                 disparity_out, k_code(m_in));
      end else if (!m_k) begin
        if (!(encoder_out[9:4] === T6_RD0[m_in[4:0]] || encoder_out[9:4] === T6_RD1[m_in[4:0]]) ||
            !(encoder_out[3:0] === T4_RD0[m_in[7:5]] || encoder_out[3:0] === T4_RD1[m_in[7:5]] ||
              (m_in[7:5] == 3'b111 && (encoder_out[3:0] === 4'b0111 || encoder_out[3:0] === 4'b1000))))
          $fatal(1, "%0t: data %h -> %b, not a code of the spec's tables", $time, m_in, encoder_out);
      end
    end
  end
  always @(posedge reset_in) begin
    m_valid = 0;
    #0.5 if (encoder_out !== 10'b0 || disparity_out !== 1'b0) $fatal(1, "%0t: reset did not clear the outputs", $time);
  end

  task automatic sym(input logic k, input logic [7:0] v, input logic rd = 0);
    @(negedge clk_in); control_in = k; encoder_in = v; disparity_data_in = rd;
    @(posedge clk_in); #1 $display("k=%b in=%h rd=%b -> %b rd=%b", k, v, rd, encoder_out, disparity_out);
  endtask

  logic [7:0] ctrl_syms[12] = '{8'h1C, 8'h3C, 8'h5C, 8'h7C, 8'h9C, 8'hBC, 8'hDC, 8'hFC,
                                8'hF7, 8'hFB, 8'hFD, 8'hFE};

  initial begin
    reset_in = 1; control_in = 0; encoder_in = 0; disparity_data_in = 0;
    repeat (2) @(posedge clk_in); #1 reset_in = 0;
    // control symbols: each once, repeated, and mixed with data
    foreach (ctrl_syms[i]) sym(1, ctrl_syms[i]);
    foreach (ctrl_syms[i]) begin sym(1, ctrl_syms[i]); sym(1, ctrl_syms[i]); sym(1, ctrl_syms[i]); end
    foreach (ctrl_syms[i]) begin sym(1, ctrl_syms[i]); sym(0, $urandom(), $urandom()); end
    // every data byte with both running disparities
    for (int v = 0; v < 256; v++) begin sym(0, v, 0); sym(0, v, 1); end
    // every byte as a control input (valid and invalid control codes)
    for (int v = 0; v < 256; v++) sym(1, v);
    for (int v = 255; v >= 0; v--) begin sym(1, v); sym(1, 8'h1C); end
    // back-to-back control/data transitions
    for (int k = 0; k < 600; k++) sym($urandom(), $urandom(), $urandom());
    // reset while sending
    sym(1, 8'hBC); #2 reset_in = 1; #4 reset_in = 0;
    sym(0, 8'h55, 1);
    $finish;
  end
endmodule
