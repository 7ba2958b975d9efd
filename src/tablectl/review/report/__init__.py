"""Review's reports: the text summary (``text``) and the HTML report with its SVG plots."""
