"""Accuracy of charset detection on short percent-decoded data, by length and family.

Run: ``python bench/bench_charset.py`` (from the repository root; ``--quick`` for fewer
samples, ``--markdown`` for the table that goes into docs/detect.md).

For every language in ``bench/corpus.py`` (plus the seed documents in ``../shared/seeds``
when that directory exists: Japanese, Chinese, Ukrainian prose, read at run time), the
sentences are joined into one stream, encoded in each of the language's legacy encodings
and in UTF-8, and cut into windows of at most 10, 30 and 100 bytes that start and end on
character boundaries.  Windows that are pure ASCII are skipped (every candidate decodes
them the same).  A guess counts as right when decoding the window with it gives the same
text as the true encoding (so windows-1250 for a German window whose only non-ASCII
letters are ä ö ü ß is right: the form value is read correctly); top-3 means the right
text is among the first three distinct readings.

Methods, side by side:

* ``ours``: ``percent_encoding.detect.charset`` (the library's own scoring);
* ``charset-normalizer``: ``charset_normalizer.from_bytes`` (skipped if not installed);
* ``hybrid``: ours, but charset-normalizer's first answer when ours is unsure
  (confidence below 0.5) and charset-normalizer's answer decodes the bytes.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import unicodedata
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

import corpus  # noqa: E402

from percent_encoding import encodings  # noqa: E402
from percent_encoding.detect import charset  # noqa: E402

try:
    import charset_normalizer
except ImportError:  # pragma: no cover - optional
    charset_normalizer = None

LENGTHS = (10, 30, 100)
SEEDS = HERE.parent.parent / "shared" / "seeds"
SEED_LANG = {
    "000_b094d93f6bc01cf1.txt": "ja",
    "001_0adb13e9acc4b3c1.txt": "ja",
    "002_958f8a5389672580.txt": "zh-Hans",
    "003_8f39bab2d4ba8419.txt": "uk",
}
_PUNCT = {"„": '"', "“": '"', "”": '"', "«": '"', "»": '"', "‘": "'", "’": "'",
          "–": "-", "—": "-", "…": "...", "\u00a0": " ", "·": ".", "№": "No."}


def seed_text(lang: str) -> str:
    """Prose lines of the seed documents in ``lang`` (markup stripped), or ""."""
    if not SEEDS.is_dir():
        return ""
    out = []
    for name, seed_lang in SEED_LANG.items():
        path = SEEDS / name
        if seed_lang != lang or not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            line = re.sub(r"\[[A-Z]+(?:\([^)]*\))?\[|[\[\]*#|]|\(\.\./[^)]*\)|\"wikilink\"",
                          "", line)
            line = re.sub(r"https?://\S+|@\w+", "", line)
            line = " ".join(line.split())
            if len(line) > 20 and sum(ord(c) > 127 for c in line) > len(line) // 2:
                out.append(line)
    return " ".join(out[:60])


def adapt(text: str, enc: encodings.Encoding) -> str:
    """Make ``text`` encodable the way a writer in that encoding would have written it:
    ASCII quotes and dashes where the encoding lacks the typographic ones, and windows-1258's
    decomposed tone marks for Vietnamese."""
    out = []
    for ch in text:
        try:
            enc.encode(ch)
            out.append(ch)
            continue
        except ValueError:
            pass
        if ch in _PUNCT:
            out.append(_PUNCT[ch])
            continue
        parts = unicodedata.normalize("NFD", ch)
        options = [list(parts)]
        for i in range(1, len(parts)):  # base + one mark precomposed (ệ -> ê + dot below)
            head = unicodedata.normalize("NFC", parts[0] + parts[i])
            if len(head) == 1:
                options.insert(0, [head, *parts[1:i], *parts[i + 1:]])
        for pieces in options:
            try:
                for p in pieces:
                    enc.encode(p)
            except ValueError:
                continue
            out.extend(pieces)
            break
        # a character the encoding cannot write at all: drop it
    return "".join(out)


def windows(text: str, enc: encodings.Encoding, length: int, count: int) -> list[bytes]:
    """Up to ``count`` windows of at most ``length`` bytes, cut at character boundaries,
    starting at word starts (or every few characters in scripts without spaces)."""
    starts = [m.start() for m in re.finditer(r"(?<!\w)\w", text)]
    if len(starts) < len(text) / 8:  # CJK, Thai: no spaces
        starts = list(range(0, len(text), 3))
    stateless = enc.name != "ISO-2022-JP"
    sizes = [len(enc.encode(c)) for c in text] if stateless else []
    out: list[bytes] = []
    step = max(1, len(starts) // count)
    for i in starts[::step]:
        j, n = i, 0
        if stateless:
            while j < len(text) and n + sizes[j] <= length:
                n += sizes[j]
                j += 1
            data = enc.encode(text[i:j])
        else:
            lo, hi = i, min(len(text), i + length)
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if len(enc.encode(text[i:mid])) <= length:
                    lo = mid
                else:
                    hi = mid - 1
            data = enc.encode(text[i:lo])
        if data.isascii() and enc.name != "ISO-2022-JP":
            continue
        if enc.name == "ISO-2022-JP" and b"\x1b" not in data:
            continue
        if len(data) >= length * 0.6:
            out.append(data)
        if len(out) >= count:
            break
    return out


def first_readings(texts: list[str], k: int = 3) -> list[str]:
    """The first ``k`` distinct texts: encodings that read the bytes the same (GBK and
    gb18030) are one answer, so top-3 means three different readings."""
    return list(dict.fromkeys(texts))[:k]


def _cn_texts(data: bytes) -> list[str]:
    assert charset_normalizer is not None
    return first_readings([str(m) for m in charset_normalizer.from_bytes(data)])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer windows per cell")
    ap.add_argument("--markdown", action="store_true", help="print the docs table")
    ap.add_argument("--detail", action="store_true", help="per-encoding rows too")
    args = ap.parse_args()
    count = 8 if args.quick else 25

    # (family, length) -> method -> [top1 hits, top3 hits, n]
    stats: dict[tuple[str, int], dict[str, list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0, 0]))
    per_enc: dict[tuple[str, int], dict[str, list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0, 0]))
    by_origin: dict[tuple[str, int], dict[str, list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0, 0]))
    timing: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)
    misses: list[str] = []
    n_seed = 0

    methods: list[str] = ["ours"]
    if charset_normalizer is not None:
        methods += ["charset-normalizer", "hybrid"]

    for lang, sentences in corpus.SENTENCES.items():
        streams = [("corpus", " ".join(sentences)),
                   ("held-out", " ".join(corpus.HELDOUT.get(lang, [])))]
        extra = seed_text(lang)
        if extra:
            streams.append(("seeds", extra))
            n_seed += 1
        for enc_name in (*corpus.LEGACY[lang], "UTF-8"):
            enc = encodings.lookup(enc_name)
            fam = corpus.FAMILY[enc.name]
            for origin, src in streams:
                text = adapt(src, enc)
                for length in LENGTHS:
                    for data in windows(text, enc, length, count):
                        truth = enc.decode(data)
                        results: dict[str, list[str]] = {}
                        t0 = time.perf_counter()
                        guess = charset(data)
                        timing["ours"] += time.perf_counter() - t0
                        calls["ours"] += 1
                        results["ours"] = first_readings(
                            [encodings.lookup(g.encoding).decode(data) for g in guess])
                        if charset_normalizer is not None:
                            t0 = time.perf_counter()
                            results["charset-normalizer"] = _cn_texts(data)
                            timing["charset-normalizer"] += time.perf_counter() - t0
                            calls["charset-normalizer"] += 1
                            cn = results["charset-normalizer"]
                            if guess and guess[0].confidence < 0.5 and cn:
                                results["hybrid"] = [cn[0], *results["ours"][:2]]
                            else:
                                results["hybrid"] = results["ours"]
                        for m in methods:
                            got = results[m]
                            for table in (stats[(fam, length)], per_enc[(enc.name, length)],
                                          stats[("all", length)],
                                          by_origin[(origin, length)]):
                                cell = table[m]
                                cell[0] += bool(got) and got[0] == truth
                                cell[1] += truth in got
                                cell[2] += 1
                        if results["ours"][:1] != [truth] and length <= 30:
                            misses.append(f"{length:3} {origin:8} {enc.name:13} {truth[:40]!r} -> "
                                          f"{guess[0].encoding if guess else None}")

    def pct(cell: list[int], k: int) -> str:
        return f"{100 * cell[k] / cell[2]:5.1f}" if cell[2] else "    -"

    fams = [*sorted({f for f, _ in stats if f != "all"}), "all"]
    header = ["family", "bytes", "n", *(f"{m} top-1 / top-3" for m in methods)]
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
    else:
        print("  ".join(f"{h:>22}" if i > 2 else f"{h:<16}" for i, h in enumerate(header)))
    for fam in fams:
        for length in LENGTHS:
            row = stats[(fam, length)]
            n = row[methods[0]][2]
            cells = [f"{pct(row[m], 0)} / {pct(row[m], 1)}" for m in methods]
            name = f"**{fam}**" if args.markdown and fam == "all" else fam
            if args.markdown:
                print(f"| {name} | {length} | {n} | " + " | ".join(cells) + " |")
            else:
                print(f"{name:<16}  {length:>16}  {n:>16}  "
                      + "  ".join(f"{c:>22}" for c in cells))
    print("\nall families, by where the text came from:")
    for origin in ("corpus", "held-out", "seeds"):
        for length in LENGTHS:
            row = by_origin[(origin, length)]
            if not row:
                continue
            n = row[methods[0]][2]
            cells = [f"{m} {pct(row[m], 0)} / {pct(row[m], 1)}" for m in methods]
            print(f"  {origin:<9} {length:>3} bytes  n={n:<4} " + "   ".join(cells))
    if args.detail:
        print()
        for (enc_name, length), row in sorted(per_enc.items()):
            print(f"{enc_name:<16} {length:>4} "
                  + "  ".join(f"{m}: {pct(row[m], 0)}/{pct(row[m], 1)}" for m in methods))
        print("\nmisses of 'ours' at 10 and 30 bytes:")
        print("\n".join(misses[:80]))
    print()
    for m in ("ours", "charset-normalizer"):
        if calls[m]:
            print(f"{m}: {1000 * timing[m] / calls[m]:.2f} ms per call ({calls[m]} calls)")
    print(f"seed documents used: {n_seed} language stream(s)"
          + ("" if n_seed else " (../shared/seeds not found)"))


if __name__ == "__main__":
    main()
