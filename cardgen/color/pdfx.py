"""Finish a CMYK PDF as PDF/X-1a:2003 (ISO 15930-4).

What the standard asks, and where it is done:
- only DeviceCMYK and DeviceGray colour, no transparency: pdf.py (``flatten``) before this;
- fonts embedded: cardgen embeds every font it uses (TrueType subsets);
- exactly one OutputIntent of subtype GTS_PDFX naming the printing condition; a condition of the
  ICC registry (``RegistryName`` http://www.color.org, such as "CGATS TR 001", US Web Coated
  SWOP) needs no embedded profile, another needs ``DestOutputProfile`` (output-intent: profile);
- Info: GTS_PDFXVersion (and GTS_PDFXConformance, which readers of the 2001 edition look for),
  Title, CreationDate, ModDate and Trapped (True or False, not Unknown);
- a document ID in the trailer; PDF 1.4 at most (no object streams);
- every page with a TrimBox (or ArtBox) inside its BleedBox inside its MediaBox: the per-card
  layout sets both.
"""
from __future__ import annotations

import pikepdf
from pikepdf import Dictionary, Name, String

from .settings import OutputIntent

PDFX_VERSION = "PDF/X-1a:2003"


def output_intent(pdf: pikepdf.Pdf, intent: OutputIntent) -> Dictionary:
    entry = Dictionary(Type=Name.OutputIntent, S=Name.GTS_PDFX,
                       OutputConditionIdentifier=String(intent.identifier),
                       OutputCondition=String(intent.condition), Info=String(intent.info))
    if intent.registry:
        entry.RegistryName = String(intent.registry)
    if intent.profile is not None:
        profile = pdf.make_stream(intent.profile.read_bytes())
        profile.N = 4
        entry.DestOutputProfile = profile
    return entry


def finish_pdfx(pdf: pikepdf.Pdf, info, intent: OutputIntent) -> None:
    """Add what PDF/X-1a:2003 asks of the document to ``pdf`` (its colour already converted);
    ``info`` is write/info.py's DocumentInfo. Save with ``save_pdfx``."""
    docinfo = pdf.docinfo
    for key in list(docinfo.keys()):
        if key not in ("/Creator", "/Producer"):
            del docinfo[key]
    docinfo.Creator = docinfo.Producer = String("cardgen")
    docinfo.Title = String(info.title)
    docinfo.Author = String(info.author)
    docinfo.Subject = String(info.subject)
    docinfo.CreationDate = docinfo.ModDate = String(info.pdf_date)
    docinfo.Trapped = Name("/False")
    docinfo.GTS_PDFXVersion = String(PDFX_VERSION)
    docinfo.GTS_PDFXConformance = String(PDFX_VERSION)
    pdf.Root.OutputIntents = pdf.make_indirect(pikepdf.Array([output_intent(pdf, intent)]))
    for key in ("/Metadata", "/Outlines", "/OpenAction", "/AcroForm", "/Names"):
        if key in pdf.Root:
            del pdf.Root[key]
    for page in pdf.pages:
        for key in ("/Group", "/Annots"):
            if key in page.obj:
                del page.obj[key]


def save_pdfx(pdf: pikepdf.Pdf, path) -> None:
    pdf.save(path, force_version="1.4", deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.disable, linearize=False)
