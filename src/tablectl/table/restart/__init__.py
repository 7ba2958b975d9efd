"""Going on after a restart: what the controller's own log says was in play (``resume``) and a
new core taking it over (``takeover``)."""
