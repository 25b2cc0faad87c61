"""A raster image's PDF streams are kept in the project's cache: a rebuild places the same
bytes without decoding the picture again, and a kept copy that is damaged, or made for
another image, is not used."""
from __future__ import annotations

import os

import pytest
from PIL import Image

import cardgen
from cardgen.draw import raster

pytestmark = pytest.mark.shipped_fonts  # the project fixture uses cardgen's own fonts (projects.py)


def _art_cards(project) -> None:
    """Every action card shows a PNG with transparency and a JPEG."""
    gradient = Image.radial_gradient("L").resize((400, 300))
    art = Image.merge("RGBA", (gradient, gradient.transpose(Image.Transpose.FLIP_LEFT_RIGHT), gradient,
                               gradient.point(lambda v: 255 - v)))
    art.save(project / "data/demo/icons/art.png")
    gradient.convert("RGB").save(project / "data/demo/icons/photo.jpg", quality=80)
    action = project / "templates/demo/action.xml.j2"
    action.write_text(action.read_text().replace(
        "{% endblock %}", '<image x="5" y="60" w="20" h="10" src="icons/art.png"/>\n'
                          '<image x="30" y="60" w="20" h="10" src="icons/photo.jpg"/>\n{% endblock %}'))


def _pdf(project, out, cache=True) -> bytes:
    return cardgen.build(["demo"], project, out, cardgen.BuildOptions(cache=cache)).sets[0].pdf.read_bytes()


def _kept(project):
    return sorted((project / ".cardgen-cache").glob("image-*.marshal"))


def test_a_rebuild_places_the_kept_streams_without_decoding_and_writes_the_same_bytes(project, tmp_path,
                                                                                    monkeypatch):
    _art_cards(project)
    fresh = _pdf(project, tmp_path / "fresh", cache=False)
    assert not (project / ".cardgen-cache").exists() or not _kept(project)  # --no-cache keeps nothing
    assert _pdf(project, tmp_path / "first") == fresh
    assert len(_kept(project)) == 2  # the PNG and the JPEG

    def no_decoding(path):
        raise AssertionError(f"{path} decoded again")

    monkeypatch.setattr(raster, "_open", no_decoding)
    assert _pdf(project, tmp_path / "again") == fresh
    assert fresh.count(b"/Subtype /Image") == 3  # the PNG, its soft mask, the JPEG


@pytest.mark.parametrize("damage", ["garbage", "another image's"])
def test_a_damaged_or_foreign_kept_copy_is_not_used(project, tmp_path, damage):
    _art_cards(project)
    fresh = _pdf(project, tmp_path / "fresh", cache=False)
    _pdf(project, tmp_path / "first")
    png, jpeg = sorted(_kept(project), key=lambda path: path.stat().st_size, reverse=True)
    if damage == "garbage":
        png.write_bytes(b"\x00not marshal")
    else:
        png.write_bytes(jpeg.read_bytes())  # a copy that is well formed, but of the other picture's streams
    assert _pdf(project, tmp_path / "again") == fresh
    assert _pdf(project, tmp_path / "third") == fresh  # kept again, whole: and used
    assert png.read_bytes() != jpeg.read_bytes()


def test_the_pixel_limit_holds_for_a_kept_image(project, tmp_path, monkeypatch):
    _art_cards(project)
    _pdf(project, tmp_path / "first")
    monkeypatch.setenv("CARDGEN_MAX_IMAGE_PIXELS", "1000")
    # with the faces' cache warm the image is met when a face is drawn from the cache: the
    # same problems as a fresh layout's
    with pytest.raises(cardgen.CardgenError) as kept:
        _pdf(project, tmp_path / "again")
    with pytest.raises(cardgen.CardgenError) as fresh:
        _pdf(project, tmp_path / "fresh", cache=False)
    said = 'image "data/demo/icons/art.png" has 400 x 300 = 120,000 pixels; limit: pixels in one image'
    assert said in str(fresh.value.problems[0])
    assert [str(p) for p in kept.value.problems] == [str(p) for p in fresh.value.problems]


def test_an_image_saved_at_its_old_size_and_time_is_drawn_anew_by_a_process_that_lives_on(project, tmp_path):
    # `cardgen watch` builds again in the same process: what it remembers of a file must not
    # outlive a save that leaves the file's size and time as they were
    _art_cards(project)
    art = project / "data/demo/icons/art.png"
    Image.new("RGB", (40, 30), "#d04010").save(art, compress_level=0)  # stored, not packed: its size is fixed
    first = _pdf(project, tmp_path / "first")
    stat = art.stat()
    Image.new("RGB", (40, 30), "#1040d0").save(art, compress_level=0)
    os.utime(art, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert (art.stat().st_size, art.stat().st_mtime_ns) == (stat.st_size, stat.st_mtime_ns)
    again = _pdf(project, tmp_path / "again")
    assert again != first
    assert again == _pdf(project, tmp_path / "fresh", cache=False)
