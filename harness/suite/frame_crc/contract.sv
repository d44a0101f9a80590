// Interface contract of frame_crc (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic clk, input logic rst_n, input logic sof, input logic eof, input logic clr,
    input logic frame_ok, input logic frame_err, input logic [2:0] err_code, input logic [3:0] ok_cnt,
    input logic pong, input logic type_err);
  always @(posedge clk) if (rst_n) begin
    `ECOV_COVER(good_frame, frame_ok)
    `ECOV_COVER(misaligned, frame_err && err_code == 3'd1)
    `ECOV_COVER(runt, frame_err && err_code == 3'd2)
    `ECOV_COVER(length_error, frame_err && err_code == 3'd3)
    `ECOV_COVER(crc_error, frame_err && err_code == 3'd4)
    `ECOV_COVER(aborted, frame_err && err_code == 3'd5)
    `ECOV_COVER(ping_pong, pong)
    `ECOV_COVER(type_error, type_err)
    `ECOV_COVER(ok_cnt_saturated, ok_cnt == 4'd15)
    `ECOV_COVER(clear_counters, clr && ok_cnt != 0)
  end
endmodule
