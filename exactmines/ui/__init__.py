"""What people and scripts touch: the command line (``cli``), text reports (``report``) and
pictures (``pictures``)."""
