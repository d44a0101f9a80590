// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb;
  reg i_clk = 0, i_rst_n, i_enable, i_clear, i_ack, i_fault;
  reg [4:0] i_vector_1, i_vector_2, i_vector_3, i_vector_4, i_vector_5, i_vector_6;
  wire o_ready, o_error;
  wire [1:0] o_fsm_status;
  wire [7:0] o_vector_1, o_vector_2, o_vector_3, o_vector_4;

  enhanced_fsm_signal_processor dut (
    .i_clk(i_clk), .i_rst_n(i_rst_n), .i_enable(i_enable), .i_clear(i_clear), .i_ack(i_ack),
    .i_fault(i_fault), .i_vector_1(i_vector_1), .i_vector_2(i_vector_2), .i_vector_3(i_vector_3),
    .i_vector_4(i_vector_4), .i_vector_5(i_vector_5), .i_vector_6(i_vector_6),
    .o_ready(o_ready), .o_error(o_error), .o_fsm_status(o_fsm_status), .o_vector_1(o_vector_1),
    .o_vector_2(o_vector_2), .o_vector_3(o_vector_3), .o_vector_4(o_vector_4));

  always #5 i_clk = ~i_clk;

  // Model of the spec's FSM: IDLE -(i_fault)-> FAULT, -(i_enable)-> PROCESS; PROCESS -> FAULT on i_fault,
  // else READY; READY -> FAULT on i_fault, -> IDLE on i_ack; FAULT -> IDLE on i_clear without i_fault.
  // PROCESS captures {i_vector_1..6, 2'b11}; READY shows it MSB first on o_vector_1..4 with o_ready;
  // FAULT raises o_error and clears o_ready and the vectors; IDLE clears them all. The registered outputs
  // (o_fsm_status included) follow the state of the cycle before. i_rst_n (asynchronous) clears all.
  // Inputs change 1 ns after a rising edge: read at the edge, compared 0.5 ns after it.
  localparam M_IDLE = 2'b00, M_PROC = 2'b01, M_READY = 2'b10, M_FAULT = 2'b11;
  logic [1:0] m_st = M_IDLE, m_status = M_IDLE;
  logic [31:0] m_cat = 0, m_vec = 0;
  logic m_ready = 0, m_error = 0;
  task automatic check(input string where);
    if ({o_ready, o_error, o_fsm_status, o_vector_1, o_vector_2, o_vector_3, o_vector_4} !==
        {m_ready, m_error, m_status, m_vec})
      $fatal(1, "%0t (%s): ready %b error %b status %0d vectors %h%h%h%h, expected %b %b %0d %h", $time, where,
             o_ready, o_error, o_fsm_status, o_vector_1, o_vector_2, o_vector_3, o_vector_4, m_ready, m_error,
             m_status, m_vec);
  endtask
  always @(negedge i_rst_n) begin
    m_st = M_IDLE; m_status = M_IDLE; m_cat = 0; m_vec = 0; m_ready = 0; m_error = 0;
    #0.5 check("reset");
  end
  always @(posedge i_clk) if (i_rst_n) begin
    automatic logic [1:0] nxt = m_st;
    case (m_st)
      M_IDLE:  nxt = i_fault ? M_FAULT : i_enable ? M_PROC : M_IDLE;
      M_PROC:  nxt = i_fault ? M_FAULT : M_READY;
      M_READY: nxt = i_fault ? M_FAULT : i_ack ? M_IDLE : M_READY;
      M_FAULT: nxt = (i_clear && !i_fault) ? M_IDLE : M_FAULT;
    endcase
    m_status = m_st;
    case (m_st)
      M_IDLE:  begin m_ready = 0; m_error = 0; m_vec = 0; end
      M_PROC:  m_cat = {i_vector_1, i_vector_2, i_vector_3, i_vector_4, i_vector_5, i_vector_6, 2'b11};
      M_READY: begin m_vec = m_cat; m_ready = 1; end
      M_FAULT: begin m_error = 1; m_ready = 0; m_vec = 0; end
    endcase
    m_st = nxt;
    #0.5 check("clock");
  end

  task automatic set_vectors(input logic [29:0] v);
    {i_vector_1, i_vector_2, i_vector_3, i_vector_4, i_vector_5, i_vector_6} = v;
  endtask

  task automatic tick(int n = 1); repeat (n) @(posedge i_clk); #1; endtask

  // IDLE -> PROCESS -> READY -> (wait) -> ack -> IDLE
  task automatic transaction(input logic [29:0] v, input int wait_ready = 1);
    set_vectors(v); i_enable = 1; tick(); i_enable = 0;
    tick(1 + wait_ready);
    i_ack = 1; tick(); i_ack = 0; tick();
  endtask

  task automatic clear_fault();
    i_fault = 0; i_clear = 1; tick(); i_clear = 0; tick();
  endtask

  initial begin
    i_rst_n = 0; i_enable = 0; i_clear = 0; i_ack = 0; i_fault = 0; set_vectors(0);
    tick(2); i_rst_n = 1; tick();
    tick(3);                                   // idle, enable low
    transaction(30'h3FFFFFFF, 3);
    transaction(30'h00000000, 1);
    transaction(30'h2AAAAAAA, 2);
    transaction(30'h15555555, 1);
    // fault in each state
    i_fault = 1; tick(2); clear_fault();                                  // from IDLE
    set_vectors($urandom()); i_enable = 1; tick(); i_enable = 0; i_fault = 1; tick(2); clear_fault();  // PROCESS
    set_vectors($urandom()); i_enable = 1; tick(); i_enable = 0; tick(2); i_fault = 1; tick(2);          // READY
    // clear while the fault persists stays in FAULT
    i_clear = 1; tick(2); i_clear = 0; tick();
    clear_fault();
    // reset after processing (drops the constant-one LSBs back to 0)
    transaction(30'h3FFFFFFF, 1);
    set_vectors(30'h3FFFFFFF); i_enable = 1; tick(2); i_enable = 0;
    i_rst_n = 0; tick(); i_rst_n = 1; tick();
    // random control and data (i_ack a one-cycle pulse)
    for (int k = 0; k < 400; k++) begin
      set_vectors({$urandom(), $urandom()});
      i_enable = $urandom(); i_ack = (($urandom() % 3) == 0) && !i_ack; i_fault = ($urandom() % 8) == 0;
      i_clear = $urandom();
      tick();
    end
    i_fault = 0; clear_fault();
    transaction(30'h1234567, 1);
    #3 i_rst_n = 0; #4 i_rst_n = 1;
    tick(2);
    $finish;
  end
endmodule
