// SPDX-License-Identifier: Apache-2.0
// 16-input priority encoder with a request mask, selectable direction and a request count.
module prio_enc #(
    parameter int N = 16
) (
    input  logic [N-1:0]         req,
    input  logic [N-1:0]         mask,     // 1 = ignore that request
    input  logic                 msb_first,
    output logic                 valid,
    output logic [$clog2(N)-1:0] idx,
    output logic [N-1:0]         grant,    // one-hot of idx when valid
    output logic                 multi,    // more than one unmasked request
    output logic [$clog2(N):0]   count     // number of unmasked requests
);
  localparam int IW = $clog2(N);

  logic [N-1:0] act;

  assign act = req & ~mask;

  always_comb begin
    idx = '0;
    if (msb_first) begin
      for (int i = 0; i < N; i++) if (act[i]) idx = IW'(i);
    end else begin
      for (int i = N - 1; i >= 0; i--) if (act[i]) idx = IW'(i);
    end
  end

  always_comb begin
    count = '0;
    for (int i = 0; i < N; i++) count = count + {{IW{1'b0}}, act[i]};
  end

  assign valid = |act;
  assign grant = valid ? (N'(1) << idx) : '0;
  assign multi = (act & (act - 1'b1)) != '0;
endmodule
