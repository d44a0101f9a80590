"""The agent loop: chats, feedback renderers and run_sample (one sample, round by round)."""
