"""Printing boards: `Board.save` (SVG, PDF, PNG) and puzzle sheets (`print_sheets`)."""
