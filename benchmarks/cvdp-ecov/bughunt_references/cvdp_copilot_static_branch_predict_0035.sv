// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb_static_branch_predict;
  logic [31:0] fetch_rdata_i, fetch_pc_i, register_addr_i;
  logic fetch_valid_i;
  logic predict_branch_taken_o;
  logic [31:0] predict_branch_pc_o;

  static_branch_predict uut (.fetch_rdata_i(fetch_rdata_i), .fetch_pc_i(fetch_pc_i),
    .register_addr_i(register_addr_i), .fetch_valid_i(fetch_valid_i),
    .predict_branch_taken_o(predict_branch_taken_o), .predict_branch_pc_o(predict_branch_pc_o));

  // Model of the spec: JAL (6F), JALR (67), C.J/C.JAL (01 with funct3 101/001) are predicted taken; a branch
  // (63) or C.BEQZ/C.BNEZ (01 with funct3 110/111) is taken when its offset is negative; nothing is taken
  // without fetch_valid_i. The target is pc + the sign-extended offset of the format (JALR: + register_addr_i;
  // the compressed offsets in RVC's bit order), compared for every branch or jump encoding. Inputs change
  // every 10 time units from 0: checked in the middle of each hold.
  function automatic logic [33:0] model(input logic [31:0] i, input logic [31:0] pc, input logic [31:0] ra,
                                        input logic v);
    logic [31:0] off;
    logic kind_jump, kind_branch;
    kind_jump = 0; kind_branch = 0; off = 0;
    if (i[6:0] == 7'h6F) begin kind_jump = 1; off = {{12{i[31]}}, i[19:12], i[20], i[30:21], 1'b0}; end
    else if (i[6:0] == 7'h67) begin kind_jump = 1; off = {{20{i[31]}}, i[31:20]} + ra; end
    else if (i[6:0] == 7'h63) begin kind_branch = 1; off = {{19{i[31]}}, i[31], i[7], i[30:25], i[11:8], 1'b0}; end
    else if (i[1:0] == 2'b01 && (i[15:13] == 3'b101 || i[15:13] == 3'b001)) begin
      kind_jump = 1; off = {{20{i[12]}}, i[12], i[8], i[10:9], i[6], i[7], i[2], i[11], i[5:3], 1'b0};
    end else if (i[1:0] == 2'b01 && (i[15:13] == 3'b110 || i[15:13] == 3'b111)) begin
      kind_branch = 1; off = {{23{i[12]}}, i[12], i[6:5], i[2], i[11:10], i[4:3], 1'b0};
    end
    return {kind_jump || kind_branch, v && (kind_jump || (kind_branch && off[31])), pc + off};
  endfunction
  initial begin
    #5;
    forever begin
      automatic logic [33:0] want = model(fetch_rdata_i, fetch_pc_i, register_addr_i, fetch_valid_i);
      if (predict_branch_taken_o !== want[32] || (want[33] && predict_branch_pc_o !== want[31:0]))
        $fatal(1, "instr %h valid %b: taken %b pc %h, expected %b %h", fetch_rdata_i, fetch_valid_i,
               predict_branch_taken_o, predict_branch_pc_o, want[32], want[31:0]);
      #10;
    end
  end

  task automatic apply(input [31:0] instr, input bit valid = 1);
    fetch_rdata_i = instr; fetch_valid_i = valid; fetch_pc_i = $urandom(); register_addr_i = $urandom();
    #10 $display("instr=%h valid=%b -> taken=%b pc=%h", instr, valid, predict_branch_taken_o, predict_branch_pc_o);
  endtask

  // random instruction with the given low 7 bits
  function automatic [31:0] with_op(input [6:0] op); return {$urandom()} & ~32'h7F | op; endfunction
  // compressed-style encoding: bits[1:0]=01 and funct3 in [15:13]
  function automatic [31:0] c_instr(input [2:0] f3);
    logic [31:0] v = $urandom(); v[1:0] = 2'b01; v[15:13] = f3; return v;
  endfunction

  initial begin
    // JAL / JALR / branch with positive and negative offsets, valid and not valid
    apply(32'h0000_006F); apply(32'hFFFF_F06F); apply(32'h8000_006F, 0);
    apply(32'h0000_0067); apply(32'hFFF0_0067); apply(32'h0000_0063); apply(32'hFE00_0FE3); apply(32'h8000_0063, 0);
    apply(32'h0000_0013); apply(32'hFFFF_FFFF); apply(32'h0000_0000, 0);
    // compressed branch/jump encodings with both sign bits
    foreach (f3s[i]) begin
      logic [31:0] v = c_instr(f3s[i]);
      v[12] = 0; apply(v); v[12] = 1; apply(v); apply(v, 0);
    end
    // random instructions of every kind
    for (int k = 0; k < 200; k++) begin
      apply(with_op(7'h6F), $urandom() % 4 != 0);
      apply(with_op(7'h67), $urandom() % 4 != 0);
      apply(with_op(7'h63), $urandom() % 4 != 0);
      apply(c_instr($urandom()), $urandom() % 4 != 0);
      apply($urandom(), $urandom());
    end
    // walking ones through the instruction word for each format
    for (int b = 7; b < 32; b++) begin
      apply((32'h1 << b) | 32'h6F); apply((32'h1 << b) | 32'h67); apply((32'h1 << b) | 32'h63);
      apply(~(32'h1 << b) & ~32'h7F | 32'h63);
    end
    $finish;
  end
  logic [2:0] f3s[4] = '{3'b110, 3'b111, 3'b101, 3'b001};
endmodule
