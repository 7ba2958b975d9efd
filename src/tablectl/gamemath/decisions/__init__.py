"""The exact value of every option a player had at one decision, given what he could see
(``sight``), per game; and every decision of a settled round judged against them (``judge``)."""
