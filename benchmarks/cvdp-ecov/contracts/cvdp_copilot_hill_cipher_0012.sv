// Interface contract of hill_cipher (cvdp hill_cipher_0012, issue 22): start is a one-clock-cycle strobe,
// and after a start the testbench waits for done before the next start (reset aborts the request).
module ecov_contract (
    input logic clk, input logic reset, input logic start, input logic [14:0] plaintext, input logic [44:0] key,
    input logic [14:0] ciphertext, input logic done);
  logic start_q, busy;
  int since_done;
  function automatic logic all_ge25(input logic [44:0] v, input int n);
    for (int i = 0; i < n; i++) if (v[i*5 +: 5] < 5'd25) return 1'b0;
    return 1'b1;
  endfunction
  function automatic logic any_gt25(input logic [14:0] v);
    return v[14:10] > 5'd25 || v[9:5] > 5'd25 || v[4:0] > 5'd25;
  endfunction
  always @(posedge clk or posedge reset) begin
    if (reset) begin
      start_q <= 1'b0; busy <= 1'b0; since_done <= 1000;
    end else begin
      if (start && start_q) `ECOV_VIOLATION(start_one_cycle)
      else if (start && busy && !done) `ECOV_VIOLATION(start_after_done)
      start_q <= start;
      if (done) busy <= 1'b0; else if (start) busy <= 1'b1;
      since_done <= done ? 0 : (since_done < 1000 ? since_done + 1 : since_done);
    end
  end
  always @(posedge clk) if (!reset) begin
    `ECOV_COVER(zero_plaintext, start && !busy && plaintext == 15'h0)
    `ECOV_COVER(zero_key, start && !busy && key == 45'h0)
    `ECOV_COVER(max_plaintext, start && !busy && all_ge25({30'h0, plaintext}, 3))
    `ECOV_COVER(max_key, start && !busy && all_ge25(key, 9))
    `ECOV_COVER(letters_beyond_alphabet, start && !busy && any_gt25(plaintext))
    `ECOV_COVER(consecutive_requests, start && !busy && since_done < 2)
    `ECOV_COVER(done_pulse, done)
    `ECOV_COVER(letter_25_out, done && (ciphertext[14:10] == 5'd25 || ciphertext[9:5] == 5'd25 || ciphertext[4:0] == 5'd25))
    `ECOV_COVER(nonzero_ciphertext, done && ciphertext != 15'h0)
  end
  always @(posedge reset) `ECOV_COVER(reset_mid_encryption, busy)
endmodule
