// Interface contract of fixed_priority_arbiter (cvdp fixed_arbiter_0004, issue 22): the testbench's
// drive_request task applies each request pattern and holds it for a few cycles. Checked on the values
// `req` has at the rising edges of clk while reset is low: a new value must be seen at 2 edges at least
// (a value seen at one edge only breaks it). grant is registered: at an edge it shows the grant for the
// req sampled at the edge before.
module ecov_contract (input logic clk, input logic reset, input logic [7:0] req, input logic [7:0] grant);
  logic [7:0] req_q, grant_q;
  logic started;         // the previous rising edge had reset low
  int unsigned age;      // rising edges `req` has held its current value (saturating)
  always @(posedge clk) begin
    req_q <= req;
    grant_q <= grant;
    if (reset) begin started <= 1'b0; age <= 1000; end
    else begin
      started <= 1'b1;
      age <= (started && req != req_q) ? 1 : (age < 1000 ? age + 1 : age);
    end
  end
  always @(posedge clk) if (!reset && started) begin
    if (req != req_q && age < 2) `ECOV_VIOLATION(req_held_few_cycles)
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
