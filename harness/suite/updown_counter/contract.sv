// Interface contract of updown_counter (issue 22): rules quote the spec; bins from its behaviour text.
module ecov_contract #(parameter int WIDTH = 8) (input logic clk, input logic rst_n, input logic en,
    input logic up, input logic load, input logic sat, input logic at_max, input logic at_min, input logic wrapped);
  always @(posedge clk) if (rst_n) begin
    `ECOV_COVER(load_over_enable, load && en)
    `ECOV_COVER(wrap_up, en && up && !load && at_max && !sat)
    `ECOV_COVER(wrap_down, en && !up && !load && at_min && !sat)
    `ECOV_COVER(saturate_up, en && up && !load && at_max && sat)
    `ECOV_COVER(saturate_down, en && !up && !load && at_min && sat)
    `ECOV_COVER(wrapped_pulse, wrapped)
    `ECOV_COVER(hold_disabled, !en && !load)
  end
endmodule
