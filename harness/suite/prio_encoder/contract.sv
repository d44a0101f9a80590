// Interface contract of prio_encoder (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract #(parameter int N = 16) (input logic [N-1:0] req, input logic [N-1:0] mask,
    input logic msb_first, input logic valid, input logic multi, input logic [$clog2(N):0] count);
  always @* begin
    `ECOV_COVER(no_request, !valid)
    `ECOV_COVER(all_masked, req != 0 && !valid)
    `ECOV_COVER(lsb_wins_multi, multi && !msb_first)
    `ECOV_COVER(msb_wins_multi, multi && msb_first)
    `ECOV_COVER(single_request, valid && !multi)
    `ECOV_COVER(all_requests, count == N)
  end
endmodule
