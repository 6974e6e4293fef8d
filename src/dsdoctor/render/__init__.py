"""Renderers: one Report in, text or JSON out. The formats issue adds SARIF / GitHub / Markdown."""
