// Interface contract of binary_search_tree_sort (cvdp binary_search_tree_sorting_0015, issue 22).
// A sort runs from the cycle `start` is sampled until `done`. The spec's "data_in should remain unchanged
// once the sorting process begins" is not checked: the shipped reference (data parquet, frozen) changes
// data_in mid-sort on purpose (the spec also says such changes are not considered); see README.md.
module ecov_contract #(parameter DATA_WIDTH = 8, parameter ARRAY_SIZE = 7) (
    input logic clk, input logic reset, input logic start,
    input logic [ARRAY_SIZE*DATA_WIDTH-1:0] data_in,
    input logic [ARRAY_SIZE*DATA_WIDTH-1:0] sorted_out, input logic done);
  logic busy;
  function automatic logic [DATA_WIDTH-1:0] el(input int i);
    return data_in[i*DATA_WIDTH +: DATA_WIDTH];
  endfunction
  function automatic int order();  // 1 ascending, 2 descending, 3 all equal, 0 other
    logic up = 1, down = 1, eq = 1;
    for (int i = 1; i < ARRAY_SIZE; i++) begin
      if (el(i) < el(i-1)) up = 0;
      if (el(i) > el(i-1)) down = 0;
      if (el(i) != el(i-1)) eq = 0;
    end
    return eq ? 3 : up ? 1 : down ? 2 : 0;
  endfunction
  always @(posedge clk or posedge reset) begin
    if (reset) begin `ECOV_COVER(reset_during_sort, busy) busy <= 0; end
    else if (!busy && start) busy <= 1;
    else if (busy && done) busy <= 0;
  end
  always @(posedge clk) if (!reset) begin
    if (start && (busy || done)) `ECOV_VIOLATION(start_only_after_done)
  end
  always @(posedge clk) if (!reset) begin
    `ECOV_COVER(all_equal, !busy && start && order() == 3)
    `ECOV_COVER(already_sorted, !busy && start && order() == 1)
    `ECOV_COVER(descending, !busy && start && order() == 2)
    `ECOV_COVER(unsorted, !busy && start && order() == 0)
    `ECOV_COVER(all_zero, !busy && start && data_in == '0)
    `ECOV_COVER(all_max, !busy && start && data_in == '1)
    `ECOV_COVER(sort_done, busy && done)
  end
endmodule
