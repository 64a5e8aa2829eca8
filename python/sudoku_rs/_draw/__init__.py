"""Drawing boards: the text grid, the SVG and the marks of variant rules."""
