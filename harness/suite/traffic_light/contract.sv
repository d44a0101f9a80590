// Interface contract of traffic_light (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract (input logic clk, input logic rst_n, input logic car_ew, input logic ped_req,
    input logic maint, input logic walk, input logic ped_waiting, input logic [2:0] state_o);
  logic [2:0] st_q;
  always @(posedge clk) st_q <= state_o;
  always @(posedge clk) if (rst_n) begin
    `ECOV_COVER(ns_to_yellow, st_q == 3'd0 && state_o == 3'd1)
    `ECOV_COVER(ped_walk, walk)
    `ECOV_COVER(walk_to_ew_green, st_q == 3'd3 && state_o == 3'd4)
    `ECOV_COVER(walk_to_red_b, st_q == 3'd3 && state_o == 3'd6)
    `ECOV_COVER(ew_green_max, st_q == 3'd4 && state_o == 3'd5 && car_ew)
    `ECOV_COVER(ew_green_no_car, st_q == 3'd4 && state_o == 3'd5 && !car_ew)
    `ECOV_COVER(flash_mode, state_o == 3'd7)
    `ECOV_COVER(flash_exit, st_q == 3'd7 && state_o == 3'd6)
    `ECOV_COVER(ped_pending, ped_waiting && state_o != 3'd3)
  end
endmodule
