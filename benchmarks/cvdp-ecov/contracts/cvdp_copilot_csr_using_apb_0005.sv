// Interface contract of csr_apb_interface (cvdp csr_using_apb_0005, issue 32). The prompt names the port
// group an APB interface ("data transactions over the Advanced Peripheral Bus (APB) interface", "APB
// Signals") and asks for two transfers that break APB on purpose: a read "without asserting pselx" and a
// write "without penable assertion". What it never asks for is an access phase that carries other values
// than the setup phase before it, so that is the one APB rule checked, at pclk's rising edges while
// presetn is high: at an edge with pselx and penable high that follows a setup phase (pselx high, penable
// low at the edge before) or continues such an access phase, paddr and pwrite, and pwdata on a write, equal
// their setup-phase values (AMBA APB: they stay stable until the transfer completes). A penable without
// pselx, or a setup never followed by an access, is not judged.
// Bins: the prompt's Input Generation items, sampled on the access edge of a transfer (or as they say).
module ecov_contract (input logic pclk, input logic presetn, input logic [31:0] paddr, input logic pselx,
    input logic penable, input logic pwrite, input logic [31:0] pwdata, input logic pready,
    input logic [31:0] prdata, input logic pslverr);
  localparam logic [31:0] DATA = 32'h10, CTRL = 32'h14, INTR = 32'h18;
  logic in_xfer;  // the previous edge was a setup phase, or an access phase that followed one
  logic [31:0] s_addr, s_wdata;
  logic s_write;
  logic nopen_q;  // the previous edge was a write setup to CONTROL_REG
  wire access = in_xfer && pselx && penable;
  always @(posedge pclk) begin
    if (!presetn) begin in_xfer <= 1'b0; nopen_q <= 1'b0; end
    else begin
      if (access && (paddr !== s_addr || pwrite !== s_write || (pwrite && pwdata !== s_wdata)))
        `ECOV_VIOLATION(access_matches_setup)
      if (pselx && !penable) begin s_addr <= paddr; s_write <= pwrite; s_wdata <= pwdata; end
      in_xfer <= pselx && (!penable || in_xfer);
      nopen_q <= pselx && !penable && pwrite && paddr == CTRL;
    end
  end
  always @(posedge pclk) if (presetn) begin
    `ECOV_COVER(write_data_reg, access && pwrite && paddr == DATA)
    `ECOV_COVER(read_data_reg, access && !pwrite && paddr == DATA)
    `ECOV_COVER(write_control_reg, access && pwrite && paddr == CTRL)
    `ECOV_COVER(read_control_reg, access && !pwrite && paddr == CTRL)
    `ECOV_COVER(write_interrupt_reg, access && pwrite && paddr == INTR)
    `ECOV_COVER(read_interrupt_reg, access && !pwrite && paddr == INTR)
    `ECOV_COVER(invalid_address_write, access && pwrite && paddr != DATA && paddr != CTRL && paddr != INTR)
    `ECOV_COVER(read_without_pselx, !pselx && penable && !pwrite && paddr == DATA)
    `ECOV_COVER(write_without_penable, nopen_q && !penable)
    `ECOV_COVER(all_ones_data_write, access && pwrite && paddr == DATA && pwdata == 32'hFFFF_FFFF)
    `ECOV_COVER(all_zeros_data_write, access && pwrite && paddr == DATA && pwdata == 32'h0)
    `ECOV_COVER(invalid_address_error, pslverr)
  end
  always @(negedge presetn) `ECOV_COVER(reset_mid_operation, pselx === 1'b1)
endmodule
