"""Colour management beside the pipeline: how a set's RGB colours and images become CMYK inks.

``settings.py`` reads a set's ``color:`` block, ``convert.py`` is the one RGB -> CMYK conversion
(an ICC profile through Pillow's ImageCms when the set names one, the documented formula
otherwise), ``pdf.py`` applies it to a written PDF (content streams, forms and images), and
``pdfx.py`` finishes a CMYK file as PDF/X-1a:2003.
"""
from __future__ import annotations

from .settings import ColorSettings, color_settings

__all__ = ["ColorSettings", "color_settings"]  # convert.Converter is imported where a build converts
