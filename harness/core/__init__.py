"""Records and rules every layer shares (stdlib only): protocols and the protocol state tracker."""
