// Interface contract of nbit_swizzling (cvdp nbit_swizzling_0009, issue 22): after applying new inputs
// (data_in and sel) the testbench waits #10ns before checking the outputs, so every applied setting is
// held at least 10 ns. Changes of data_in and sel in the same time step are one setting; a new setting
// less than 10 ns after the previous one breaks the rule. Time 0 holds the first setting (issue 30: the
// values from time 0, driven or not, are a setting too, so a first change within 10 ns of time 0 breaks it). Bins are sampled on the settled values of a time
// step (as they stood when the next time step's first change arrived).
module ecov_contract #(parameter DATA_WIDTH = 64) (
    input logic [DATA_WIDTH-1:0] data_in, input logic [1:0] sel, input logic [DATA_WIDTH-1:0] data_out);
  logic [DATA_WIDTH-1:0] pd, pd_prev;
  logic [1:0] ps, ps_prev;
  realtime last_set, t_evt;
  bit any_set = 1'b1, any_evt, settled_before;  // last_set = 0: time 0 is the first setting

  always @(data_in or sel or data_out) begin
    if (any_evt && $realtime != t_evt && !$isunknown({pd, ps})) begin
      `ECOV_COVER(full_reverse, ps == 2'b00)
      `ECOV_COVER(half_swap, ps == 2'b01)
      `ECOV_COVER(quarter_swap, ps == 2'b10)
      `ECOV_COVER(eighth_swap, ps == 2'b11)
      `ECOV_COVER(data_zero, pd == '0)
      `ECOV_COVER(data_all_ones, pd == '1)
      `ECOV_COVER(mode_change_same_data, settled_before && ps != ps_prev && pd == pd_prev)
      `ECOV_COVER(mode_and_data_change, settled_before && ps != ps_prev && pd != pd_prev)
      pd_prev = pd; ps_prev = ps; settled_before = 1'b1;
    end
    if (data_in !== pd || sel !== ps) begin
      if (any_set && $realtime != last_set && $realtime - last_set < 10.0)
        `ECOV_VIOLATION(inputs_held_10ns)
      if (!any_set || $realtime != last_set) last_set = $realtime;
      any_set = 1'b1;
    end
    t_evt = $realtime;
    any_evt = 1'b1;
    pd = data_in; ps = sel;
  end
endmodule
