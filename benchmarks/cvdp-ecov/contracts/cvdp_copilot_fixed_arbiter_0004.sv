// Interface contract of fixed_priority_arbiter (cvdp fixed_arbiter_0004, issue 22): bins only. The prompt
// states no rule on `req` (issue 32: "hold it for a few cycles" describes its checking task drive_request,
// not the interface; the arbiter answers a new request pattern at every edge). grant is registered: at an
// edge it shows the grant for the req sampled at the edge before.
module ecov_contract (input logic clk, input logic reset, input logic [7:0] req, input logic [7:0] grant);
  logic [7:0] req_q, grant_q;
  logic started;         // the previous rising edge had reset low
  always @(posedge clk) begin
    req_q <= req;
    grant_q <= grant;
    started <= !reset;
  end
  always @(posedge clk) if (!reset && started) begin
    `ECOV_COVER(single_request_0, req_q == 8'h01 && grant == 8'h01)
    `ECOV_COVER(single_request_1, req_q == 8'h02 && grant == 8'h02)
    `ECOV_COVER(single_request_2, req_q == 8'h04 && grant == 8'h04)
    `ECOV_COVER(single_request_3, req_q == 8'h08 && grant == 8'h08)
    `ECOV_COVER(single_request_4, req_q == 8'h10 && grant == 8'h10)
    `ECOV_COVER(single_request_5, req_q == 8'h20 && grant == 8'h20)
    `ECOV_COVER(single_request_6, req_q == 8'h40 && grant == 8'h40)
    `ECOV_COVER(single_request_7, req_q == 8'h80 && grant == 8'h80)
    `ECOV_COVER(multiple_requests_highest_priority, $countones(req_q) >= 2 && grant == (req_q & (~req_q + 8'd1)))
    `ECOV_COVER(all_requests, req_q == 8'hFF && grant == 8'h01)
    `ECOV_COVER(no_request_grant_cleared, req_q == 8'h00 && grant == 8'h00 && grant_q != 8'h00)
  end
  always @(posedge clk) if (reset) begin
    `ECOV_COVER(reset_during_active_requests, req != 8'h00 && grant_q != 8'h00 && grant == 8'h00)
  end
endmodule
