`timescale 1ns/1ps
module morse_encoder_tb;
  reg  [7:0] ascii_in;
  wire [5:0] morse_out;
  wire [3:0] morse_length;

  morse_encoder dut (.ascii_in(ascii_in), .morse_out(morse_out), .morse_length(morse_length));

  initial begin
    // letters, digits, punctuation
    for (int c = 8'h41; c <= 8'h5A; c++) begin ascii_in = c; #10 $display("%c -> %b (%0d)", ascii_in, morse_out, morse_length); end
    for (int c = 8'h30; c <= 8'h39; c++) begin ascii_in = c; #10 $display("%c -> %b (%0d)", ascii_in, morse_out, morse_length); end
    foreach (punct[i]) begin ascii_in = punct[i]; #10 $display("%c -> %b (%0d)", ascii_in, morse_out, morse_length); end
    // unsupported characters (lowercase, control, high codes)
    ascii_in = 8'h61; #10; ascii_in = 8'h00; #10; ascii_in = 8'hFF; #10; ascii_in = 8'h7A; #10;
    // every code, interleaved with a reset-to-default character
    for (int c = 0; c < 256; c++) begin ascii_in = c; #10; ascii_in = 8'h20; #10; end
    $finish;
  end
  byte punct[] = '{8'h2E, 8'h2C, 8'h3F, 8'h27, 8'h21, 8'h2F, 8'h28, 8'h29, 8'h26, 8'h3A, 8'h3B,
                   8'h3D, 8'h2B, 8'h2D, 8'h22, 8'h40};
endmodule
