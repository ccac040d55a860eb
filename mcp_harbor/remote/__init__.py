"""Remote execution (``runs_on:``): the wire protocol, the executor, the worker, the sweeper."""
