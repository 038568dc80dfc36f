"""Charset detection on realistic form values: ours against charset-normalizer, chardet
and chardetng-py, by charset and by length bucket.

Run: ``python bench/bench_form_charset.py`` (from the repository root; ``--per-bucket N``
values per charset and bucket, default 400; ``--markdown`` prints the bench/README.md
table).

Corpus: the translated messages of the gettext catalogs installed on the machine
(``/usr/share/locale/<lang>/LC_MESSAGES/*.mo``: real UI strings of real programs, which
the library's models never saw), cleaned of printf directives, markup and accelerators,
for the languages each of the 14 charsets of ``tests/test_form_chromium.py`` is written
in.  Each message gives one value per bucket at most: its longest prefix, ending at a
character boundary, whose encoded length fits the bucket (2-10, 11-30, 31-100 bytes);
values that are pure ASCII (every detector reads them right) or that the charset cannot
encode are skipped.  A guess is right when decoding the value with it gives the true text
(so GBK for a gb18030 value that only uses GBK characters is right).

Methods: ``ours`` is ``percent_encoding.detect.charset(value)[0]``; the peers are
``charset_normalizer.from_bytes(value).best()``, ``chardet.detect(value)`` and
``chardetng_py.detect(value, allow_utf8=True)``, each skipped when not installed.  A
peer's name is read as a WHATWG label when it is one, else as a Python codec; no answer,
or one that does not decode the value, is wrong.
"""

from __future__ import annotations

import argparse
import gettext
import random
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from percent_encoding import encodings  # noqa: E402
from percent_encoding.detect import charset  # noqa: E402

LOCALE = Path("/usr/share/locale")
BUCKETS = ((2, 10), (11, 30), (31, 100))
# The 14 charsets of tests/test_form_chromium.py and the languages written in them.
LANGS: dict[str, tuple[str, ...]] = {
    "Shift_JIS": ("ja",),
    "EUC-JP": ("ja",),
    "ISO-2022-JP": ("ja",),
    "gb18030": ("zh_CN",),
    "GBK": ("zh_CN",),
    "Big5": ("zh_TW",),
    "EUC-KR": ("ko",),
    "windows-1252": ("fr", "de", "es", "pt"),
    "ISO-8859-2": ("pl", "cs", "hu"),
    "windows-1251": ("ru", "uk", "bg"),
    "KOI8-R": ("ru",),
    "ISO-8859-7": ("el",),
    "windows-874": ("th",),
    "UTF-8": ("ja", "zh_CN", "ko", "ru", "fr", "de", "pl", "el", "th", "uk"),
}
_DIRECTIVE = re.compile(r"%(?:\d+\$)?[-+ #0']*\d*(?:\.\d+)?(?:hh|h|ll|l|L|q|j|z|t)?[a-zA-Z%]"
                        r"|\$\{?\w+\}?|<[^>]*>|\\[nt]|_(?=\w)|&(?=\w)")


def messages(lang: str) -> list[str]:
    """Distinct cleaned translations from the gettext catalogs of ``lang``."""
    out: dict[str, None] = {}
    for mo in sorted((LOCALE / lang / "LC_MESSAGES").glob("*.mo")):
        try:
            with mo.open("rb") as f:
                cat = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
        except Exception:  # a catalog we cannot read is skipped
            continue
        for key, text in cat.items():
            if not key or not isinstance(text, str):
                continue
            for line in text.splitlines():
                line = " ".join(_DIRECTIVE.sub("", line).split()).strip(" :.,;")
                if len(line) >= 2 and not line.isascii():
                    out[line] = None
    return list(out)


def prefix_in(text: str, enc: encodings.Encoding, lo: int, hi: int) -> bytes | None:
    """The encoding of the longest prefix of ``text`` of at most ``hi`` bytes, if it has
    at least ``lo`` bytes and is not ASCII."""
    try:
        best = None
        n = len(text)
        a, b = 1, n
        while a <= b:  # binary search: the encoded length grows with the prefix
            mid = (a + b) // 2
            data = enc.encode(text[:mid])
            if len(data) <= hi:
                best, a = data, mid + 1
            else:
                b = mid - 1
    except ValueError:
        return None
    if best is None or len(best) < lo:
        return None
    if best.isascii() if enc.name != "ISO-2022-JP" else b"\x1b" not in best:
        return None
    return best


def corpus(per_bucket: int, seed: int = 1) -> dict[str, dict[tuple[int, int], list[bytes]]]:
    rng = random.Random(seed)
    cache: dict[str, list[str]] = {}
    out: dict[str, dict[tuple[int, int], list[bytes]]] = {}
    for name, langs in LANGS.items():
        enc = encodings.lookup(name)
        pool = [m for lang in langs for m in cache.setdefault(lang, messages(lang))]
        rng.shuffle(pool)
        out[name] = {}
        for lo, hi in BUCKETS:
            vals: dict[bytes, None] = {}
            for text in pool:
                # start at a random word for variety, as a field holds part of a sentence
                words = text.split(" ")
                start = rng.randrange(len(words)) if len(words) > 3 else 0
                data = prefix_in(" ".join(words[start:]), enc, lo, hi) \
                    or prefix_in(text, enc, lo, hi)
                if data is not None:
                    vals[data] = None
                if len(vals) >= per_bucket:
                    break
            out[name][(lo, hi)] = list(vals)
    return out


def _read(label: str | None, data: bytes) -> str | None:
    if not label:
        return None
    try:
        return encodings.lookup(label.replace("_", "-")).decode(data, "fatal")
    except Exception:  # not a WHATWG label, or does not decode
        pass
    try:
        return data.decode(label)
    except (LookupError, UnicodeDecodeError):
        return None


def methods() -> dict[str, Callable[[bytes], str | None]]:
    out: dict[str, Callable[[bytes], str | None]] = {
        "ours": lambda d: _read(charset(d)[0].encoding, d),
    }
    try:
        import charset_normalizer

        def cn(d: bytes) -> str | None:
            best = charset_normalizer.from_bytes(d).best()
            return None if best is None else str(best)

        out["charset-normalizer"] = cn
    except ImportError:
        pass
    try:
        import chardet

        out["chardet"] = lambda d: _read(chardet.detect(d)["encoding"], d)
    except ImportError:
        pass
    try:
        import chardetng_py

        # allow_utf8: form data may be UTF-8 (browsers pass False only for HTML pages)
        out["chardetng-py"] = lambda d: _read(chardetng_py.detect(d, allow_utf8=True), d)
    except ImportError:
        pass
    return out


def forms_check(data: dict[str, dict[tuple[int, int], list[bytes]]], seed: int = 3) -> str:
    """Whole forms: how often the "fields disagree" finding fires on forms whose fields
    share one charset (false alarms), how often it is missed on forms mixing two, and
    how often the whole-form reading is wrong."""
    from percent_encoding.detect import form_field_charsets

    rng = random.Random(seed)

    def reads(enc: str, b: bytes) -> str:
        return encodings.lookup(enc).decode(b, "replace")

    same = alarms = wrong = 0
    for name, buckets in data.items():
        pool = [v for vals in buckets.values() for v in vals]
        for _ in range(100):
            form = [(f"f{j}".encode(), rng.choice(pool)) for j in range(3)]
            whole, _fields = form_field_charsets(form)
            joined = b"\n".join(v for _, v in form)
            same += 1
            alarms += any(f.startswith("fields disagree") for f in whole.findings)
            wrong += reads(whole.encoding, joined) != encodings.lookup(name).decode(joined)
    mixes = [("Shift_JIS", "EUC-JP"), ("windows-1251", "KOI8-R"), ("GBK", "Big5"),
             ("UTF-8", "windows-1252"), ("EUC-KR", "Shift_JIS")]
    mixed = missed = both_right = 0
    for a, b in mixes:
        pa = [v for vals in data[a].values() for v in vals]
        pb = [v for vals in data[b].values() for v in vals]
        for _ in range(100):
            form = [(b"x", rng.choice(pa)), (b"y", rng.choice(pb))]
            whole, fields = form_field_charsets(form)
            mixed += 1
            missed += not any(f.startswith("fields disagree") for f in whole.findings)
            both_right += (reads(fields[0].encoding, form[0][1])
                           == encodings.lookup(a).decode(form[0][1])
                           and reads(fields[1].encoding, form[1][1])
                           == encodings.lookup(b).decode(form[1][1]))
    return (f"\nWhole forms (3 fields of one charset, 100 per charset): {same} forms, "
            f"'fields disagree' raised on {alarms} ({alarms / same:.1%}), whole-form reading "
            f"wrong on {wrong} ({wrong / same:.1%}).  Forms mixing two charsets "
            f"({', '.join(f'{a}+{b}' for a, b in mixes)}; 100 each): {mixed} forms, "
            f"the finding missed on {missed} ({missed / mixed:.1%}), both fields read right "
            f"with per_field on {both_right} ({both_right / mixed:.1%}).")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-bucket", type=int, default=400)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    data = corpus(args.per_bucket)
    meths = methods()
    # (charset, bucket) -> method -> hits; and n
    hits: dict[tuple[str, tuple[int, int]], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    count: dict[tuple[str, tuple[int, int]], int] = defaultdict(int)
    timing: dict[str, float] = defaultdict(float)
    for name, buckets in data.items():
        truth_enc = encodings.lookup(name)
        for bucket, values in buckets.items():
            for v in values:
                truth = truth_enc.decode(v)
                count[(name, bucket)] += 1
                for m, f in meths.items():
                    t0 = time.perf_counter()
                    got = f(v)
                    timing[m] += time.perf_counter() - t0
                    if got == truth:
                        hits[(name, bucket)][m] += 1
    names = list(meths)
    total_n = sum(count.values())
    # one table per bucket is easier to read: rows charsets, columns methods
    lines = []
    for lo, hi in BUCKETS:
        lines.append(f"\n**{lo}-{hi} bytes** (share of values read right)\n")
        lines.append("| charset | values | " + " | ".join(names) + " |")
        lines.append("|---|---:|" + "---:|" * len(names))
        agg: dict[str, int] = defaultdict(int)
        agg_n = 0
        for name in data:
            n = count[(name, (lo, hi))]
            agg_n += n
            row = []
            best = max(hits[(name, (lo, hi))][m] for m in names) if n else 0
            for m in names:
                h = hits[(name, (lo, hi))][m]
                agg[m] += h
                cell = f"{h / n:.1%}" if n else "-"
                row.append(f"**{cell}**" if n and h == best else cell)
            lines.append(f"| {name} | {n} | " + " | ".join(row) + " |")
        best = max(agg.values())
        lines.append(f"| **all** | {agg_n} | " + " | ".join(
            (f"**{agg[m] / agg_n:.1%}**" if agg[m] == best else f"{agg[m] / agg_n:.1%}")
            for m in names) + " |")
    per_charset = {name: sum(count[(name, b)] for b in BUCKETS) for name in data}
    lines.append("")
    lines.append("values per charset: " + ", ".join(f"{k} {v}" for k, v in per_charset.items()))
    lines.append("time per value: " + ", ".join(
        f"{m} {timing[m] / total_n * 1e3:.2f} ms" for m in names))
    lines.append(forms_check(data))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
