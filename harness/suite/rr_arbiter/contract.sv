// Interface contract of rr_arbiter (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract #(parameter int N = 4) (input logic clk, input logic rst_n, input logic [N-1:0] req,
    input logic [N-1:0] lock, input logic [N-1:0] gnt, input logic gnt_valid, input logic starved);
  logic [N-1:0] gnt_q;
  always @(posedge clk) gnt_q <= gnt;
  always @(posedge clk) if (rst_n) begin
    `ECOV_COVER(locked_hold, gnt_valid && gnt == gnt_q && (gnt & req & lock) != 0 && $countones(req) > 1)
    `ECOV_COVER(rotation, gnt_valid && gnt_q != 0 && gnt != gnt_q && (gnt_q & req) != 0)
    `ECOV_COVER(all_request, req == {N{1'b1}})
    `ECOV_COVER(no_request_idle, req == 0 && !gnt_valid)
    `ECOV_COVER(drop_loses_grant, gnt_q != 0 && (gnt_q & req) == 0)
    `ECOV_COVER(starvation, starved)
  end
endmodule
