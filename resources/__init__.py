"""The GUI's static assets (icon, style sheet), installed as ``execretrieval_gui.resources``."""
