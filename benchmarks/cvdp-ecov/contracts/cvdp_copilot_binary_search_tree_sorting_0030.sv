// Interface contract of search_binary_search_tree (cvdp binary_search_tree_sorting_0030, issue 22).
// A search runs from the cycle `start` is sampled until complete_found or search_invalid.
module ecov_contract #(parameter DATA_WIDTH = 16, parameter ARRAY_SIZE = 15) (
    input logic clk, input logic reset, input logic start,
    input logic [DATA_WIDTH-1:0] search_key,
    input logic [$clog2(ARRAY_SIZE):0] root,
    input logic [ARRAY_SIZE*DATA_WIDTH-1:0] keys,
    input logic [ARRAY_SIZE*($clog2(ARRAY_SIZE)+1)-1:0] left_child,
    input logic [ARRAY_SIZE*($clog2(ARRAY_SIZE)+1)-1:0] right_child,
    input logic [$clog2(ARRAY_SIZE):0] key_position, input logic complete_found, input logic search_invalid);
  localparam int PW = $clog2(ARRAY_SIZE) + 1;
  localparam logic [PW-1:0] NIL = '1;
  logic busy;
  logic [DATA_WIDTH-1:0] k_q;
  logic [PW-1:0] r_q;
  logic [ARRAY_SIZE*DATA_WIDTH-1:0] keys_q;
  logic [ARRAY_SIZE*PW-1:0] l_q, rc_q;
  int size_q;

  function automatic logic [DATA_WIDTH-1:0] key(input int i);
    return keys[i*DATA_WIDTH +: DATA_WIDTH];
  endfunction
  // Nodes reachable from root 0; -1 when the arrays are not a binary search tree (left <= node < right
  // over whole subtrees, pointers in range or null, no node reached twice).
  function automatic int bst_size();
    logic reached[ARRAY_SIZE], done_[ARRAY_SIZE], has_lo[ARRAY_SIZE], has_hi[ARRAY_SIZE];
    logic [DATA_WIDTH-1:0] lo[ARRAY_SIZE], hi[ARRAY_SIZE];
    int n = 1;
    for (int i = 0; i < ARRAY_SIZE; i++) begin reached[i] = 0; done_[i] = 0; has_lo[i] = 0; has_hi[i] = 0; end
    reached[0] = 1;
    for (int pass = 0; pass < ARRAY_SIZE; pass++)
      for (int i = 0; i < ARRAY_SIZE; i++) if (reached[i] && !done_[i]) begin
        logic [PW-1:0] l = left_child[i*PW +: PW], r = right_child[i*PW +: PW];
        done_[i] = 1;
        if (l != NIL) begin
          if (int'(l) >= ARRAY_SIZE || reached[l]) return -1;
          if (key(l) > key(i) || (has_lo[i] && key(l) <= lo[i])) return -1;
          reached[l] = 1; n++; has_lo[l] = has_lo[i]; lo[l] = lo[i]; has_hi[l] = 1; hi[l] = key(i);
        end
        if (r != NIL) begin
          if (int'(r) >= ARRAY_SIZE || reached[r]) return -1;
          if (key(r) <= key(i) || (has_hi[i] && key(r) > hi[i])) return -1;
          reached[r] = 1; n++; has_hi[r] = has_hi[i]; hi[r] = hi[i]; has_lo[r] = 1; lo[r] = key(i);
        end
      end
    return n;
  endfunction

  wire empty_tree = root == NIL && keys == '0 && left_child == '1 && right_child == '1;
  wire finished = complete_found || search_invalid;

  always @(posedge clk or posedge reset) begin
    if (reset) begin `ECOV_COVER(reset_during_search, busy) busy <= 0; end
    else if (!busy && start) begin
      busy <= 1; k_q <= search_key; r_q <= root; keys_q <= keys; l_q <= left_child; rc_q <= right_child;
      size_q <= root == NIL ? 0 : bst_size();
    end else if (busy && finished) busy <= 0;
  end
  // rules
  always @(posedge clk) if (!reset) begin
    if (start && (busy || finished)) `ECOV_VIOLATION(start_only_after_previous_search)
    if (busy && !finished && (search_key != k_q || root != r_q || keys != keys_q || left_child != l_q ||
                              right_child != rc_q)) `ECOV_VIOLATION(inputs_stable_during_search)
    if (!busy && start && !(empty_tree || (root == 0 && bst_size() > 0))) `ECOV_VIOLATION(valid_bst)
  end
  // bins
  always @(posedge clk) if (!reset) begin
    `ECOV_COVER(empty_tree_search, !busy && start && empty_tree)
    `ECOV_COVER(single_node_tree, !busy && start && root == 0 && bst_size() == 1)
    `ECOV_COVER(full_tree, !busy && start && root == 0 && bst_size() == ARRAY_SIZE)
    `ECOV_COVER(key_found, busy && complete_found)
    `ECOV_COVER(smallest_key_found, busy && complete_found && key_position == 0)
    `ECOV_COVER(largest_key_found, busy && complete_found && size_q > 1 && int'(key_position) == size_q - 1)
    `ECOV_COVER(key_absent, busy && search_invalid && r_q != NIL)
    `ECOV_COVER(empty_tree_invalid, busy && search_invalid && r_q == NIL)
  end
endmodule
