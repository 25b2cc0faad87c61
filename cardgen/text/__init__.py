"""Text: fonts, the rich-text markup, and fitting text into boxes."""
