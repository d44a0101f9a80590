// ECov bug-hunt reference: ECov's coverage reference (same stimulus) with a scoreboard of the spec.
`timescale 1ns/1ps
module tb_cdc_pulse_synchronizer;

    // Testbench signals
    logic src_clock;
    logic des_clock;
    logic rst_in;
    logic src_pulse;
    logic des_pulse;

    // Instantiate the DUT
    cdc_pulse_synchronizer uut (
        .src_clock(src_clock),
        .des_clock(des_clock),
        .rst_in(rst_in),
        .src_pulse(src_pulse),
        .des_pulse(des_pulse)
    );

    // half periods in ps, changed per scenario
    int src_half = 5000, des_half = 5000;
    bit running = 1;

    initial begin src_clock = 0; while (running) #(src_half * 1ps) src_clock = ~src_clock; end
    initial begin des_clock = 0; while (running) #(des_half * 1ps) des_clock = ~des_clock; end

    always @(posedge des_clock) if (des_pulse) $display("%0t des_pulse", $time);

    // Model of the spec: a toggle flop in the source domain flips on each src_pulse, a double flop carries
    // it into the destination domain, a further flop delays it, and des_pulse is the XOR of the last two
    // (one des_clock cycle per source pulse); rst_in clears every stage at once.
    logic m_tog = 0, m_a = 0, m_b = 0, m_c = 0;
    always @(posedge src_clock or posedge rst_in)
        if (rst_in) m_tog <= 0; else if (src_pulse) m_tog <= ~m_tog;
    always @(posedge des_clock or posedge rst_in)
        if (rst_in) begin m_a <= 0; m_b <= 0; m_c <= 0; end
        else begin m_a <= m_tog; m_b <= m_a; m_c <= m_b; end
    always @(posedge src_clock or posedge des_clock or posedge rst_in or negedge rst_in) begin
        #0.1;
        if ($time > 20 && des_pulse !== (m_b ^ m_c))
            $fatal(1, "%0t: des_pulse %b, expected %b", $time, des_pulse, m_b ^ m_c);
    end

    // one source pulse, then enough idle time for the destination to see it
    task automatic pulse_and_wait();
        @(negedge src_clock); src_pulse = 1;
        @(negedge src_clock); src_pulse = 0;
        repeat (4) @(posedge des_clock);
        repeat (2) @(posedge src_clock);
    endtask

    task automatic stimulus_generator(input int sh, input int dh, input int n);
        src_half = sh; des_half = dh;
        repeat (2) @(posedge src_clock);
        for (int i = 0; i < n; i++) pulse_and_wait();
        // two one-cycle pulses one source cycle apart
        @(negedge src_clock); src_pulse = 1; @(negedge src_clock); src_pulse = 0;
        @(negedge src_clock); src_pulse = 1; @(negedge src_clock); src_pulse = 0;
        repeat (5) @(posedge des_clock);
    endtask

    initial begin
        rst_in = 1; src_pulse = 0;
        #20 rst_in = 0;
        stimulus_generator(5000, 5000, 4);       // 100 MHz / 100 MHz
        stimulus_generator(2000, 2000, 4);       // 250 MHz / 250 MHz
        stimulus_generator(5555, 5000, 4);       // 90 MHz vs 100 MHz
        stimulus_generator(500000, 5000, 2);     // 1 MHz vs 100 MHz
        stimulus_generator(5000, 500000, 2);     // 100 MHz vs 1 MHz
        stimulus_generator(2000, 7000, 3);       // fast source
        stimulus_generator(7000, 2000, 3);       // fast destination
        // random frequencies and pulse patterns
        for (int k = 0; k < 10; k++) begin
            src_half = 2000 + $urandom() % 20000; des_half = 2000 + $urandom() % 20000;
            repeat (20) begin
                @(negedge src_clock); src_pulse = ($urandom() % 4 == 0);
                if (src_pulse) begin @(negedge src_clock); src_pulse = 0; repeat (4) @(posedge des_clock); end
            end
        end
        src_pulse = 0;
        // reset while idle
        src_half = 5000; des_half = 5000;
        repeat (3) @(posedge des_clock);
        #1 rst_in = 1; #7 rst_in = 0;
        // reset during synchronization (toggle flop set, synchronizers in flight)
        @(negedge src_clock); src_pulse = 1; @(negedge src_clock); src_pulse = 0;
        @(posedge des_clock); #1 rst_in = 1; #3 rst_in = 0;
        pulse_and_wait();
        @(negedge src_clock); src_pulse = 1; @(negedge src_clock); src_pulse = 0;
        repeat (2) @(posedge des_clock); #1 rst_in = 1; #3 rst_in = 0;
        pulse_and_wait(); pulse_and_wait();
        running = 0;
        $finish;
    end

endmodule
