// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb_image_stego;
  localparam row = 2, col = 2, EMBED_COUNT_WIDTH = 3;
  localparam NP = row * col;
  reg  [NP*8-1:0] img_in;
  reg  [NP*4-1:0] data_in;
  reg  [2:0] bpp;
  reg  [7:0] encryption_key;
  reg  [NP-1:0] mask;
  wire [NP*8-1:0] img_out;
  wire error_out;
  wire [EMBED_COUNT_WIDTH-1:0] embedded_pixel_count;
  wire [1:0] embedding_done;

  image_stego #(.row(row), .col(col), .EMBED_COUNT_WIDTH(EMBED_COUNT_WIDTH)) uut (
    .img_in(img_in), .data_in(data_in), .bpp(bpp), .encryption_key(encryption_key), .mask(mask),
    .img_out(img_out), .error_out(error_out), .embedded_pixel_count(embedded_pixel_count),
    .embedding_done(embedding_done));

  // Model of the spec: error_out = odd parity of data_in; data_in is XOR-encrypted with the key in 8-bit
  // blocks; for each masked pixel i the lowest n = bpp + 1 bits (bpp 0..3) are replaced by the n-bit group
  // i of the encrypted stream, and counted; other bpp values embed nothing. embedding_done: 00 with mask 0,
  // 10 when a pixel was embedded, 11 when none was. Inputs change every 10 time units from 0: checked in
  // the middle of each hold.
  function automatic logic [NP*8+EMBED_COUNT_WIDTH+2:0] model();
    logic [NP*4-1:0] enc;
    logic [NP*8-1:0] img = img_in;
    int n = int'(bpp) + 1, count = 0;
    for (int b = 0; b < NP * 4; b += 8) enc[b +: 8] = data_in[b +: 8] ^ encryption_key;
    for (int i = 0; i < NP; i++)
      if (mask[i] && bpp <= 3) begin
        for (int k = 0; k < n; k++) img[i*8 + k] = enc[n*i + k];
        count++;
      end
    return {img, ^data_in, EMBED_COUNT_WIDTH'(count), mask == 0 ? 2'b00 : count > 0 ? 2'b10 : 2'b11};
  endfunction
  initial begin
    #5;
    forever begin
      if ({img_out, error_out, embedded_pixel_count, embedding_done} !== model())
        $fatal(1, "bpp=%0d mask=%b: img %h err %b cnt %0d done %b, expected %h", bpp, mask, img_out, error_out,
               embedded_pixel_count, embedding_done, model());
      #10;
    end
  end

  task automatic apply(input [NP*8-1:0] img, input [NP*4-1:0] d, input [2:0] b, input [7:0] k, input [NP-1:0] m);
    img_in = img; data_in = d; bpp = b; encryption_key = k; mask = m;
    #10 $display("bpp=%0d mask=%b -> img=%h cnt=%0d done=%b err=%b", b, m, img_out, embedded_pixel_count,
                 embedding_done, error_out);
  endtask

  initial begin
    apply('0, '0, 0, 0, '0);
    // every bpp (valid and invalid) with every mask, on extreme and random images
    for (int b = 0; b < 8; b++)
      for (int m = 0; m < (1 << NP); m++) begin
        apply('1, '0, b, 8'h00, m);
        apply('0, '1, b, 8'h00, m);
        apply('0, '0, b, 8'hFF, m);
        apply('1, '1, b, 8'hFF, m);
        apply({$urandom()}, $urandom(), b, $urandom(), m);
      end
    // walking ones in the data and key
    for (int i = 0; i < NP * 4; i++) apply(32'hA5A5_5A5A, 16'h1 << i, 3, 8'h00, '1);
    for (int i = 0; i < 8; i++) apply(32'h0F0F_F0F0, 16'h0, 3, 8'h1 << i, '1);
    // random
    repeat (300) apply($urandom(), $urandom(), $urandom(), $urandom(), $urandom());
    $finish;
  end
endmodule
