"""A raster image's PDF streams kept in the project's cache (``.cardgen-cache``) between builds,
found by the file's content and the size asked for (see ``kept_raster``)."""
from __future__ import annotations

import marshal
from pathlib import Path

from ..code_identity import code_identity
from ..kept_file import read_sealed, sealed
from ..write.atomic import staged
from .raster import Raster, check_pixels, load_raster, opened, raster_from


def kept_raster(path: Path, most: int | None, folder: Path) -> Raster:
    """``load_raster``, from ``folder``'s copy of its streams when there is one (and kept there):
    a rebuild neither imports Pillow's decoders nor decodes and compresses the picture again.
    The copy is found by the file's content and the size asked for, and used only by the same
    cardgen, Pillow and reportlab; the pixel limit is checked again, as it may have changed."""
    import PIL
    import reportlab

    from ..text.fonts import file_digest

    try:
        digest = file_digest(path)
    except OSError:  # unreadable: said as a file that cannot be read is
        return load_raster(path, most)
    kept = folder / f"image-{digest}-{most or 0}.marshal"
    made_by = (code_identity(), PIL.__version__, reportlab.Version, digest, most)  # what the copy must say
    try:
        stored = marshal.loads(read_sealed(kept) or b"")
        if stored["made by"] != made_by:
            raise ValueError
        width, height = stored["size"]
        raster = Raster(*stored["raster"])
    except (OSError, EOFError, ValueError, TypeError, KeyError):
        raster = None
    if raster is not None:
        check_pixels(path, width, height)
        return raster
    with opened(path) as image:
        size = image.size
        raster = raster_from(path, most, image)
    fields = (raster.name, raster.width, raster.height, raster.stream, raster.filters, raster.color_space,
              raster.cmyk_inverted, raster.alpha, raster.picture_width, raster.picture_height)
    try:
        data = sealed(marshal.dumps({"made by": made_by, "size": size, "raster": fields}))
        with staged(kept) as (temporary,):
            temporary.write_bytes(data)
    except (ValueError, OSError):
        pass  # no room: the image is decoded again next time
    return raster
