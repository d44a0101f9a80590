// Interface contract of apb_dsp_op (cvdp apb_dsp_op_0006, issue 22): the prompt's APB driver drives PADDR,
// PWDATA and PWRITE when PSEL is asserted and asserts PENABLE for the second phase of the transfer.
// Checked at the rising edges of PCLK while PRESETn is high:
// * penable_second_phase: PENABLE is high only with PSEL high and after an edge where PSEL was already high
//   (a setup phase came first; a longer access phase is accepted).
// * addr_data_set_with_psel: during the access phase PADDR and PWRITE (and PWDATA on a write) keep the values
//   driven in the setup phase.
module ecov_contract #(parameter ADDR_WIDTH = 'd8, parameter DATA_WIDTH = 'd32) (
    input logic clk_dsp, input logic en_clk_dsp, input logic PCLK, input logic PRESETn,
    input logic [ADDR_WIDTH-1:0] PADDR, input logic PWRITE, input logic [DATA_WIDTH-1:0] PWDATA,
    input logic PSEL, input logic PENABLE,
    input logic [DATA_WIDTH-1:0] PRDATA, input logic PREADY, input logic PSLVERR);
  logic prev_sel, prev_en;
  logic [ADDR_WIDTH-1:0] s_addr;
  logic s_write;
  logic [DATA_WIDTH-1:0] s_wdata;
  logic last_access, last_write, last_valid;  // the previous edge was an access (and its kind)
  bit [6:1] ctrl_seen;                          // control modes 1..6 written

  function automatic bit valid_reg(input logic [ADDR_WIDTH-1:0] a);
    return a == 'h0 || a == 'h4 || a == 'h8 || a == 'hC || a == 'h10 || a == 'h14 || a == 'h18;
  endfunction

  wire access = PSEL && PENABLE;

  always @(posedge PCLK) begin
    if (!PRESETn) begin
      prev_sel <= 1'b0; prev_en <= 1'b0; last_access <= 1'b0;
    end else begin
      if (PENABLE && !(PSEL && prev_sel)) `ECOV_VIOLATION(penable_second_phase)
      else if (access && (PADDR !== s_addr || PWRITE !== s_write || (PWRITE && PWDATA !== s_wdata)))
        `ECOV_VIOLATION(addr_data_set_with_psel)
      if (PSEL && !PENABLE) begin s_addr <= PADDR; s_write <= PWRITE; s_wdata <= PWDATA; end
      prev_sel <= PSEL; prev_en <= PENABLE;
      last_access <= access; last_write <= PWRITE; last_valid <= valid_reg(PADDR);
      if (access && PWRITE && PADDR == 'h10 && PWDATA >= 1 && PWDATA <= 6) ctrl_seen[PWDATA[2:0]] <= 1'b1;
      `ECOV_COVER(reg_write, access && PWRITE && valid_reg(PADDR))
      `ECOV_COVER(reg_read, access && !PWRITE && valid_reg(PADDR))
      `ECOV_COVER(ctrl_sram_write, access && PWRITE && PADDR == 'h10 && PWDATA == 1)
      `ECOV_COVER(ctrl_sram_read, access && PWRITE && PADDR == 'h10 && PWDATA == 2)
      `ECOV_COVER(ctrl_all_modes, &ctrl_seen)
      `ECOV_COVER(ctrl_other_value, access && PWRITE && PADDR == 'h10 && (PWDATA == 0 || PWDATA > 6))
      `ECOV_COVER(invalid_reg_write, access && PWRITE && !valid_reg(PADDR))
      `ECOV_COVER(invalid_reg_read, access && !PWRITE && !valid_reg(PADDR))
      `ECOV_COVER(error_on_valid_reg, last_access && last_valid && PSLVERR)
      `ECOV_COVER(read_data_nonzero, last_access && !last_write && PRDATA != '0)
      `ECOV_COVER(fast_clock_access, access && en_clk_dsp)
    end
  end
endmodule
