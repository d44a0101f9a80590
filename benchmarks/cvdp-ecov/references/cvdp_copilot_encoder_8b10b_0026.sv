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
