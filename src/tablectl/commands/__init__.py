"""One module per ``tablectl`` subcommand, each exporting ``command`` (see ``tablectl.cli``)."""
