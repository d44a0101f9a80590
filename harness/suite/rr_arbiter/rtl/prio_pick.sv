// SPDX-License-Identifier: Apache-2.0
// Find-first-set: the lowest set bit of vec as one-hot and as index.
module prio_pick #(
    parameter int N = 4
) (
    input  logic [N-1:0]         vec,
    output logic [N-1:0]         onehot,
    output logic [$clog2(N)-1:0] idx,
    output logic                 any
);
  always_comb begin
    onehot = '0;
    idx    = '0;
    for (int i = N - 1; i >= 0; i--) begin
      if (vec[i]) begin
        onehot = '0;
        onehot[i] = 1'b1;
        idx = i[$clog2(N)-1:0];
      end
    end
  end
  assign any = |vec;
endmodule
