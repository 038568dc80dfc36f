"""Which encoding are these percent-decoded bytes in?

Strategy: the bytes of a form value or a query are short (often under 30 bytes), so a
detector must squeeze evidence out of very little.  We decode the bytes with every
candidate decoder of the WHATWG Encoding Standard (§§9-14; ``percent_encoding.encodings``)
in fatal mode (§4.1 error mode "fatal"): a candidate that cannot decode them drops out.
Each survivor's text is scored with a small language model of the languages written in
that encoding (a unigram model: ranked letter and character lists per language, with
back-off classes such as "a GB 2312 level-1 hanzi", "a C1 control", "a box-drawing
character"; a penalty for upper case inside words, which catches KOI8-R read as
windows-1251, and for words that mix alphabets; a bonus for the commonest words of the
Latin-script languages).  The score is the log-probability of the text, so a two-byte CJK reading
and a one-byte Cyrillic reading of the same bytes compete fairly; a small prior per
encoding breaks ties.  ``docs/detect.md`` has the accuracy by input length and how it
compares with charset-normalizer (which we measured and do not need).

Rules applied before scoring, in order:

1. a ``_charset_`` hint naming a known label is decisive (HTML, *constructing the entry
   list*: the browser fills a ``_charset_`` field with the encoding it used);
2. a ``probe`` hint (a hidden field with a known character) is decisive: the candidates
   whose encoder produces the submitted bytes win (the form's encoding is the page's, HTML
   *selecting a form submission encoding*; characters it lacks are sent as ``&#N;``, the
   Encoding Standard's "html" error mode as the URL Standard's urlencoded serializer uses it);
3. valid UTF-8 with at least one multi-byte sequence comes first (UTF-8 is what every
   current form sends; random legacy text is rarely valid UTF-8);
4. pure ASCII is UTF-8 (every ASCII-compatible encoding decodes it the same), unless it
   holds ISO-2022-JP escape sequences;
5. otherwise the scores decide; a ``charset`` hint (a Content-Type ``charset=``
   parameter) only adds a bonus.

Work is bounded: at most 4096 bytes are looked at (from a little before the first non-ASCII
byte), and each candidate costs one decode and one pass over the distinct characters.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from . import encodings as _enc
from .errors import (
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)

__all__ = ["DEFAULT_CANDIDATES", "CharsetGuess", "charset", "choose_form_encoding"]

MAX_BYTES = 4096


@dataclass(frozen=True)
class CharsetGuess:
    """One answer of :func:`charset`: a WHATWG encoding name, a confidence in [0, 1],
    a short reason, and ``findings``: problems noticed on the way (fields that
    disagree, a value cut inside a UTF-8 sequence), each one sentence."""

    encoding: str
    confidence: float
    reason: str
    findings: tuple[str, ...] = ()


#: Field names whose value real forms fill with the page's (so the input's) charset:
#: Google and Baidu ``ie``, Yahoo ``ei``, ``inputEncoding``/``input_encoding`` (search
#: appliances, OpenSearch-style forms), ``charset``/``encoding``/``enc`` (many CMSs), and
#: ``oe`` (Google's output encoding, which pages set to their own charset too).  Matched
#: case-insensitively, in this order; ``echo_fields=`` replaces the list.
ECHO_CHARSET_FIELDS: tuple[str, ...] = (
    "ie", "ei", "inputEncoding", "input_encoding", "charset", "encoding", "enc", "oe",
)


#: The encodings tried when no ``candidates`` are given: UTF-8 and the legacy encodings
#: that still turn up in form data, most common first (the order breaks exact ties).
DEFAULT_CANDIDATES: tuple[str, ...] = (
    "UTF-8", "windows-1252", "windows-1251", "Shift_JIS", "GBK", "gb18030", "EUC-KR",
    "Big5", "EUC-JP", "ISO-2022-JP", "windows-1250", "ISO-8859-2", "KOI8-R", "KOI8-U",
    "ISO-8859-5", "IBM866", "windows-1253", "ISO-8859-7", "windows-1254", "windows-1255",
    "ISO-8859-8", "windows-1256", "ISO-8859-6", "windows-1257", "ISO-8859-13",
    "ISO-8859-4", "windows-1258", "windows-874", "ISO-8859-15",
)

# Log prior per encoding (nats): roughly how often it still shows up on the web (the
# ISO-8859 encodings other than -1/-2/-15 are rare next to their windows-125x twins); it
# only breaks near-ties.
_PRIOR: dict[str, float] = {
    "windows-1252": -0.5, "windows-1251": -1.0, "Shift_JIS": -1.0, "GBK": -1.0,
    "gb18030": -1.2, "EUC-KR": -1.0, "Big5": -1.0, "EUC-JP": -1.5, "ISO-2022-JP": -1.5,
    "windows-1250": -1.5, "ISO-8859-2": -2.0, "KOI8-R": -2.0, "KOI8-U": -2.3,
    "ISO-8859-5": -3.0, "IBM866": -3.0, "windows-1253": -1.5, "ISO-8859-7": -2.0,
    "windows-1254": -1.5, "windows-1255": -1.5, "ISO-8859-8": -3.0, "windows-1256": -1.5,
    "ISO-8859-6": -3.0, "windows-1257": -2.0, "ISO-8859-13": -3.0, "ISO-8859-4": -3.0,
    "windows-1258": -2.0, "windows-874": -1.5, "ISO-8859-15": -2.5,
}
_DEFAULT_PRIOR = -3.5

# ---------------------------------------------------------------------------------------
# Language data, written for this module.  Letters: most frequent first (lower case; ASCII
# letters are listed so that the non-ASCII ones get a realistic share).  CJK: the most
# frequent characters of running text, most frequent first.
_LETTERS: dict[str, str] = {
    "ru": "оеаинтсрвлкмдпуяызьбгчйхжшюцщэфъё",
    "uk": "оанівтерсклудмпзяьигбчхйцєшжюїщфґ",
    "bg": "аоеинтрсвлкдпмзгяъубчьцжйшхщфю",
    "pl": "aioeznrwcystkdpmujlłbgęhąóżśćfńźv",
    "cs": "oeantivslrkdpmíuájzyhcřěébšžčůfgúňxťóďw",
    "hu": "eatlnskomrizgdáébyvhjöpufcóíőüúűx",
    "de": "enisratdhulcgmobwfkzvpüäßöjyxq",
    "fr": "esaitnrulodcpméqvgfbhxyjèàzêçôîûùëïkœâw",
    "es": "eaosrnidlctumpbgvyqóhfízjéáñxúükw",
    "pt": "aeosridmntcuplvgqbfhãçáéjzíêóxõôúàküwy",
    "tr": "aeinrlıkdmyustobüşzgçhğvcöpfjâ",
    "el": "αοετινσηυρπκςμλίόάέωδγήύχθφώβξζψϊΐϋΰ",
    "he": "יוהלאמרבתנשםדקעכחןפסגצזטךףץ",
    "ar": "الينمةهوترعبدكفسقأحجشإطصخزذثغضظىآءؤئ",
    "th": "านรอกเ่มง้ยัดีลวทสตขบิคพะหืจุปแผชโใไำูึศษถฉณญธภซฟฝฐฑฒฎฏฆฤ็๋์๊ฮฬ",
    "lt": "iasoetnurklmdvjpgėšybųžzčcąįūęhf",
    # windows-1258 writes Vietnamese with combining tone marks (U+0300 grave, U+0301 acute,
    # U+0303 tilde, U+0309 hook above, U+0323 dot below) after the base letter.
    "vi": "nhtc\u0301giaou\u0300\u0323ê\u0309đm\u0303ơlôvyâăsưpkbrqxeáàóòéèíìúùýõ",
}
# The commonest words of the Latin-script languages: a word found here is evidence for the
# language (and so for the encodings it is written in) that letter counts cannot give.
_WORDS: dict[str, str] = {
    "pl": "i w się na nie z do to że a o jak ale po co jest tak za od jego przez dla by czy "
          "już tym które był była są oraz także jej może gdy we ze jako tylko",
    "cs": "a v se na je že to s z do o k i ve by jako pro ale ze po jsou byl už při také "
          "který která které jeho jen již bylo být není až podle",
    "hu": "a az és hogy nem egy is meg van már még csak ő volt el ki de mint sem pedig amely "
          "után között kell lesz vagy így azt ez be fel",
    "de": "der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als "
          "auch es an werden aus er hat dass sie nach wird bei einer um am sind noch wie über "
          "einem so zum können war",
    "fr": "de la le et les des en un du une que est pour qui dans par plus pas au sur ne se "
          "ce il sont à été avec où très même aux elle ont",
    "es": "de la que el en y a los se del las un por con no una su para es al lo como más o "
          "pero sus le ha sí sin sobre este ya entre cuando todo esta ser son también fue "
          "había está según",
    "pt": "de a o que e do da em um para é com não uma os no se na por mais as dos como mas "
          "ao ele das à seu sua ou quando muito nos já também são está foi pela pelo",
    "tr": "ve bir bu da de için ile olarak çok daha en gibi olan sonra kadar ama ne var her "
          "şey değil mi olan ise ya",
    "lt": "ir yra kad su į iš per buvo jo tai nuo dėl kaip bet po apie ar savo kuris kuri "
          "nėra jis ji tik dar taip kai jau metų",
    "vi": "của và là các có được trong những một người cho không với này đã để nhà năm "
          "khi ở từ đến theo",
}

_SCRIPT: dict[str, str] = {
    "ru": "CYRILLIC", "uk": "CYRILLIC", "bg": "CYRILLIC", "el": "GREEK", "he": "HEBREW",
    "ar": "ARABIC", "th": "THAI",
}
_LANGUAGE_NAMES: dict[str, str] = {
    "ru": "Russian", "uk": "Ukrainian", "bg": "Bulgarian", "pl": "Polish", "cs": "Czech",
    "hu": "Hungarian", "de": "German", "fr": "French", "es": "Spanish", "pt": "Portuguese",
    "tr": "Turkish", "el": "Greek", "he": "Hebrew", "ar": "Arabic", "th": "Thai",
    "lt": "Lithuanian", "vi": "Vietnamese", "ja": "Japanese", "zh-Hans": "Simplified Chinese",
    "zh-Hant": "Traditional Chinese", "ko": "Korean", "und": "any language",
}

_CJK_TOP: dict[str, str] = {
    "ja": (
        "、。のにはいたをしてるがとでかなれうすっらもまこあんりくきだ「」日人一年大本中"
        "ょおけさどそつせわえみじめちろゃばごひね出国会十ー二事時行見月分生上ルンスト"
        "自者後方子クリライッシタレドア前手地合三間市同学高気長東新社対部物場作業実発定"
        "明動思要開用体入内心何理代現成全通金私言野関回意家話問外最数当度政民下経報立法"
        "性主強重化力表水道売世界円県以来小少多公的区品加電特今平選語書外調目神"
    ),
    "zh-Hans": (
        "，。的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可"
        "主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力"
        "里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其"
        "些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比"
        "或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程"
        "展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较"
        "将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光"
        "门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证"
        "改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完"
        "类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且"
        "究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列"
        "习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快"
        "效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细"
        "引听该铁价严龙飞“”《》（）：；！？"
    ),
    "zh-Hant": (
        "，。的一是在不了有和人這中大為上個國我以要他時來用們生到作地於出就分對成會可"
        "主發年動同工也能下過子說產種面而方後多定行學法所民得經十三之進著等部度家電力"
        "裡如水化高自二理起小物現實加量都兩體制機當使點從業本去把性好應開它合還因由其"
        "些然前外天政四日那社義事平形相全表間樣與關各重新線內數正心反你明看原又麼利比"
        "或但質氣第向道命此變條只沒結解問意建月公無系軍很情者最立代想已通並提直題黨程"
        "展五果料象員革位入常文總次品式活設及管特件長求老頭基資邊流路級少圖山統接知較"
        "將組見計別她手角期根論運農指幾九區強放決西被幹做必戰先回則任取據處隊南給色光"
        "門即保治北造百規熱領七海口東導器壓志世金增爭濟階油思術極交受聯什認六共權收證"
        "改清己美再採轉更單風切打白教速花帶安場身車例真務具萬每目至達走積示議聲報鬥完"
        "類八離華名確才科張信馬節話米整空元況今集溫傳土許步群廣石記需段研界拉林律叫且"
        "究觀越織裝影算低持音眾書布復容兒須際商非驗連斷深難近礦千週委素技備半辦青省列"
        "習響約支般史感勞便團往酸歷市克何除消構府稱太準精值號率族維劃選標寫存候毛親快"
        "效斯院查江型眼王按格養易置派層片始卻專狀育廠京識適屬圓包火住調滿縣局照參紅細"
        "引聽該鐵價嚴龍飛臺台灣「」『』（）：；！？"
    ),
    "ko": (
        "이다의에는하고을를가한지로서기사도리있수대시어자인니일적정라해부전들과제여국장"
        "그나으보주면동상성소것만게아우원위요내무화경구비방문되생음않중등행후연개세학공"
        "관조오때했계었던미발민며신실야영용유재저진차통트합현회히간결단당물법분선설안업"
        "없종터까각년습입말받운와최모바더치호감같시작품또할데번교력산말러명변식려"
    ),
}

# Back-off log-probabilities (nats) by character class, per model family.
_ASCII = -3.0  # the same in every model: ASCII reads the same in every candidate
_IMPOSSIBLE = -20.0  # C0/C1 controls, private use, unassigned, U+FFFD
_COMMON_PUNCT = frozenset("\u00a0«»„“”‘’‚–—…•·€°§№×")
_UPPER = -3.0  # an upper-case letter
_LOWER_UPPER = -3.0  # ... right after a lower-case letter ("пРИВЕТ")
_UPPER_RUN = 2.0  # ... right after an upper-case letter (capitals are written in runs)


def _ranked(chars: str, mass: float, zipf: bool) -> dict[str, float]:
    """Log-probabilities for a ranked list: geometric decay for alphabets (the first letter
    about 30 times as likely as the last, as in real letter counts), Zipf for CJK."""
    items = list(dict.fromkeys(chars))
    n = len(items)
    if zipf:
        weights = [1.0 / (r + 10) for r in range(n)]
    else:
        tau = max(n / 3.5, 1.0)
        weights = [math.exp(-r / tau) for r in range(n)]
    total = sum(weights)
    return {c: math.log(mass * w / total) for c, w in zip(items, weights, strict=True)}


def _category(ch: str) -> str:
    return unicodedata.category(ch)


def _is_impossible(ch: str) -> bool:
    cat = _category(ch)
    return cat in ("Cc", "Co", "Cn", "Cs") or ch == "\ufffd"


class _Model(dict[str, float]):
    """A unigram language model: ``model[ch]`` is log P(ch); unseen characters fall back
    on their class (computed once per character, then cached)."""

    #: log P of an ASCII letter this model has no figure for: rare in text written in
    #: another script, so a Latin reading of Latin text beats a CJK or Cyrillic one
    ascii_letter = -4.0
    #: the language's commonest words (Latin-script languages only)
    words: frozenset[str] = frozenset()

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def background(self, ch: str) -> float:  # pragma: no cover - overridden
        raise NotImplementedError

    def __missing__(self, ch: str) -> float:
        if ch < "\x80":
            if not ch.isalpha():
                value = _ASCII
            elif ch.isupper():
                value = self[ch.lower()]
            else:
                value = self.ascii_letter
        elif _is_impossible(ch):
            value = _IMPOSSIBLE
        else:
            low = ch.lower()[:1]  # "İ".lower() is "i" + U+0307
            value = self[low] if low != ch else self.background(ch)
        self[ch] = value
        return value


class _AlphabetModel(_Model):
    def __init__(self, lang: str) -> None:
        super().__init__(lang)
        self.words = frozenset(_WORDS.get(lang, "").split())
        letters = _LETTERS[lang]
        self.script = _SCRIPT.get(lang, "LATIN")
        if self.script == "LATIN":
            self.ascii_letter = -6.5  # a Latin letter the language hardly uses
        else:
            self.ascii_letter = -4.5
        self.update(_ranked(letters, 0.82, zipf=False))
        if lang == "es":
            self["¿"] = self["¡"] = -6.0
        elif lang == "ar":
            for c in "،؛؟":
                self[c] = -5.0
        elif lang == "th":
            for c in "ๆฯ":
                self[c] = -6.0

    def background(self, ch: str) -> float:
        if ch in _COMMON_PUNCT:
            return -7.0
        cat = _category(ch)
        name = unicodedata.name(ch, "")
        if cat.startswith("L"):
            return -9.0 if name.startswith(self.script) else -13.0
        if cat == "Mn":
            return -10.0 if name.startswith(self.script) else -12.0
        if 0x2500 <= ord(ch) <= 0x25FF:
            return -14.0  # box drawing and blocks: what IBM866/KOI8 give for letters
        if cat == "Nd" or cat.startswith("Z"):
            return -12.0
        return -11.0


class _GenericModel(_Model):
    """For encodings we have no language data for: any letter is as good as another."""

    ascii_letter = -3.5

    def background(self, ch: str) -> float:
        if ch in _COMMON_PUNCT:
            return -7.0
        cat = _category(ch)
        if cat.startswith("L"):
            return -6.0 if ord(ch) < 0x3000 else -8.0
        if 0x2500 <= ord(ch) <= 0x25FF:
            return -14.0
        return -11.0


def _decode_set(enc: str, leads: range, trails: Sequence[int]) -> frozenset[str]:
    raw = bytearray()
    for lead in leads:
        for trail in trails:
            raw += bytes((lead, trail, 0x20))
    text = _enc.lookup(enc).decode(bytes(raw))
    return frozenset(c for c in text if c != " " and c != "\ufffd" and not _is_impossible(c))


class _CJKModel(_Model):
    # per language: (top-list mass, log P of a level-1 character not in the top list)
    _LEVEL1: ClassVar[dict[str, tuple[float, float]]] = {
        "ja": (0.55, -9.4), "zh-Hans": (0.5, -9.2), "zh-Hant": (0.45, -9.6), "ko": (0.55, -8.8),
    }

    def __init__(self, lang: str) -> None:
        super().__init__(lang)
        mass, self.level1_lp = self._LEVEL1[lang]
        self.update(_ranked(_CJK_TOP[lang], mass, zipf=True))
        hi = range(0xA1, 0xFF)
        if lang == "ja":  # JIS X 0208 level 1 kanji: rows 16-47
            self.level1 = _decode_set("EUC-JP", range(0xB0, 0xD0), hi)
        elif lang == "zh-Hans":  # GB 2312 level 1 hanzi
            self.level1 = _decode_set("GBK", range(0xB0, 0xD8), hi)
        elif lang == "zh-Hant":  # Big5 frequently used characters
            self.level1 = _decode_set("Big5", range(0xA4, 0xC6),
                                      [*range(0x40, 0x7F), *hi])
        else:  # KS X 1001 hangul syllables
            self.level1 = _decode_set("EUC-KR", range(0xB0, 0xC9), hi)

    def background(self, ch: str) -> float:
        cp = ord(ch)
        lang = self.lang
        if ch in self.level1:
            return self.level1_lp
        if 0x3040 <= cp <= 0x309F:  # hiragana
            return -8.0 if lang == "ja" else -13.0
        if 0x30A0 <= cp <= 0x30FF:  # katakana
            return -7.5 if lang == "ja" else -13.0
        if 0xFF61 <= cp <= 0xFF9F:  # half-width katakana: rare in form text
            return -12.0 if lang == "ja" else -16.0
        if 0xAC00 <= cp <= 0xD7A3 or 0x3130 <= cp <= 0x318F:  # hangul
            return -14.0 if lang == "ko" else -16.0
        if 0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0xF900 <= cp <= 0xFAFF:
            return -11.0 if lang == "ko" else -12.5
        if 0x3000 <= cp <= 0x303F:  # CJK punctuation
            return -8.0
        if 0xFF01 <= cp <= 0xFF5E:  # full-width ASCII
            return -9.0
        if 0x2500 <= cp <= 0x257F:
            return -12.0
        if ch in _COMMON_PUNCT:
            return -9.0
        return -11.0


_ENCODING_LANGS: dict[str, tuple[str, ...]] = {
    "windows-1252": ("de", "fr", "es", "pt"), "ISO-8859-15": ("de", "fr", "es", "pt"),
    "windows-1250": ("pl", "cs", "hu"), "ISO-8859-2": ("pl", "cs", "hu"),
    "windows-1251": ("ru", "uk", "bg"), "KOI8-R": ("ru", "uk", "bg"),
    "KOI8-U": ("ru", "uk", "bg"), "ISO-8859-5": ("ru", "uk", "bg"),
    "IBM866": ("ru", "uk", "bg"), "x-mac-cyrillic": ("ru", "uk", "bg"),
    "windows-1253": ("el",), "ISO-8859-7": ("el",), "windows-1254": ("tr",),
    "windows-1255": ("he",), "ISO-8859-8": ("he",), "ISO-8859-8-I": ("he",),
    "windows-1256": ("ar",), "ISO-8859-6": ("ar",),
    "windows-1257": ("lt",), "ISO-8859-13": ("lt",), "ISO-8859-4": ("lt",),
    "windows-1258": ("vi",), "windows-874": ("th",),
    "Shift_JIS": ("ja",), "EUC-JP": ("ja",), "ISO-2022-JP": ("ja",),
    "GBK": ("zh-Hans",), "gb18030": ("zh-Hans",), "Big5": ("zh-Hant",), "EUC-KR": ("ko",),
}

_MODELS: dict[str, _Model] = {}


def _model(lang: str) -> _Model:
    m = _MODELS.get(lang)
    if m is None:
        if lang in _CJK_TOP:
            m = _CJKModel(lang)
        elif lang in _LETTERS:
            m = _AlphabetModel(lang)
        else:
            m = _GenericModel(lang)
        _MODELS[lang] = m
    return m


class _CaseTable(dict[int, str]):
    """``str.translate`` table: lower-case letter -> "l", upper-case -> "u", else " "."""

    def __missing__(self, cp: int) -> str:
        ch = chr(cp)
        if ch.islower():
            v = "l"
        elif ch.isupper() or ch.istitle():
            v = "u"
        else:
            v = " "
        self[cp] = v
        return v


_CASE = _CaseTable()
_UPPER_RUNS = re.compile("u+")


class _ScriptTable(dict[int, str]):
    """``str.translate`` table: ASCII letter -> "a", other Latin letter -> "l", a letter
    of another alphabet (Cyrillic, Greek, Hebrew, Arabic, Thai, ...) -> "x", else " "."""

    def __missing__(self, cp: int) -> str:
        ch = chr(cp)
        if cp < 0x80:
            v = "a" if ch.isalpha() else " "
        elif cp >= 0x3000 or not (ch.isalpha() or unicodedata.category(ch) == "Mn"):
            v = " "
        elif unicodedata.name(ch, "").startswith("LATIN") or 0x300 <= cp <= 0x36F:
            v = "l"
        else:
            v = "x"
        self[cp] = v
        return v


_SCRIPTS = _ScriptTable()
_MIXED = -5.0  # a word switching between Latin and another alphabet ("Grцe")


def _mixed_score(text: str) -> float:
    cls = text.translate(_SCRIPTS)
    if "x" not in cls:
        return 0.0
    return _MIXED * (cls.count("ax") + cls.count("xa") + cls.count("lx") + cls.count("xl"))


def _case_score(text: str) -> float:
    cls = text.translate(_CASE)
    n_upper = cls.count("u")
    if not n_upper:
        return 0.0
    runs = len(_UPPER_RUNS.findall(cls))
    return (n_upper * _UPPER + cls.count("lu") * _LOWER_UPPER
            + (n_upper - runs) * _UPPER_RUN)


# Letters with a final form: the final form inside a word, or the plain form at the end
# of one, is a spelling mistake; in text read with the wrong encoding it is common.
_FINAL_FORMS: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    "el": (re.compile(r"ς(?=[^\W\d_])"), re.compile(r"(?<=[^\W\d_])σ(?![^\W\d_])")),
    "he": (re.compile(r"[ךםןףץ](?=[^\W\d_])"),
           re.compile(r"(?<=[^\W\d_])[כמנפצ](?![^\W\d_])")),
}


# Monotonic Greek puts an accent on every word of more than one syllable: a long lower-case
# word without one is unusual (and Hebrew bytes read as Greek never have one).
_GREEK_NO_ACCENT = re.compile(r"(?<![^\W\d_])[α-ωϊϋ]{4,}(?![^\W\d_])")


_WORD = re.compile(r"[^\W\d_]+")
_WORD_BONUS = 1.5


def _score(text: str, encoding: str) -> tuple[float, str]:
    """Best log-probability of ``text`` over the languages written in ``encoding``, and
    that language's code."""
    langs = _ENCODING_LANGS.get(encoding, ("und",))
    counts = Counter(text).items()
    words: list[str] | None = None
    best, best_lang = -math.inf, langs[0]
    for lang in langs:
        model = _model(lang)
        s = 0.0
        for ch, n in counts:
            s += n * model[ch]
        finals = _FINAL_FORMS.get(lang)
        if finals is not None:
            s -= 6.0 * len(finals[0].findall(text)) + 3.0 * len(finals[1].findall(text))
        if lang == "el":
            s -= 2.5 * len(_GREEK_NO_ACCENT.findall(text))
        if model.words:
            if words is None:
                words = _WORD.findall(unicodedata.normalize("NFC", text).lower())
            s += _WORD_BONUS * sum(1 for w in words if w in model.words)
        if s > best:
            best, best_lang = s, lang
    return best + _case_score(text) + _mixed_score(text), best_lang


# ---------------------------------------------------------------------------------------
# Decoding helpers

_NON_ASCII = re.compile(rb"[\x80-\xff]")
_ISO2022JP_ESC = re.compile(rb"\x1b(?:\$[@B]|\([BJI])")
_NOT_ASCII_COMPATIBLE = frozenset(
    {"UTF-16BE", "UTF-16LE", "ISO-2022-JP", "replacement"}
)


def _decode(enc: _enc.Encoding, data: bytes, cut: bool) -> str | None:
    """Fatal decode; ``None`` on error.  When we cut the input at MAX_BYTES, a sequence
    broken by the cut is forgiven."""
    try:
        return enc.decode(data, "fatal")
    except TextDecodeError as e:
        if cut and e.position >= len(data) - 4:
            try:
                return enc.decode(data[: e.position], "fatal")
            except TextDecodeError:
                return None
        return None


def _resolve(candidates: Sequence[str] | None) -> list[_enc.Encoding]:
    if candidates is None:
        return [_enc.lookup(c) for c in DEFAULT_CANDIDATES]
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, Sequence | set
                                                                | frozenset):
        raise PercentEncodingTypeError(
            "candidates must be a list of encoding labels, not "
            f"{type(candidates).__name__}"
        )
    out: list[_enc.Encoding] = []
    for label in candidates:
        if not isinstance(label, str):
            raise PercentEncodingTypeError(
                f"candidates must hold str labels, not {type(label).__name__}"
            )
        e = _enc.lookup(label)
        if e not in out:
            out.append(e)
    if not out:
        raise PercentEncodingError("candidates is empty: give at least one encoding label")
    return out


def _as_bytes(data: object, what: str = "data") -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise PercentEncodingTypeError(
        f"{what} must be bytes (percent-decoded octets), not {type(data).__name__}"
        + ("; percent-decode it first (percent_encoding.decode)" if isinstance(data, str)
           else "")
    )


def _known(label: object) -> _enc.Encoding | None:
    if isinstance(label, bytes):
        try:
            label = label.decode("ascii")
        except UnicodeDecodeError:
            return None
    if not isinstance(label, str):
        raise PercentEncodingTypeError(f"an encoding label must be str, not "
                                       f"{type(label).__name__}")
    try:
        return _enc.lookup(label)
    except LookupError:
        return None


_HINT_KEYS = frozenset({"_charset_", "probe", "charset"})


def _check_hints(hints: object) -> Mapping[str, object]:
    if hints is None:
        return {}
    if not isinstance(hints, Mapping):
        raise PercentEncodingTypeError(f"hints must be a dict, not {type(hints).__name__}")
    unknown = set(hints) - _HINT_KEYS
    if unknown:
        raise PercentEncodingError(
            f"unknown hint(s) {sorted(map(str, unknown))}: use '_charset_', 'probe', 'charset'"
        )
    return hints


def _probe_bytes(enc: _enc.Encoding, char: str) -> bytes | None:
    try:
        return enc.encode(char, "html")
    except PercentEncodeError:  # lone surrogate
        return None


# ---------------------------------------------------------------------------------------
# The detector

_TEMPERATURE = 2.0  # nats; spreads confidences so that they track measured accuracy


def _ranked_guesses(
    data: bytes, encs: list[_enc.Encoding], cut: bool, bonus: str | None
) -> list[tuple[float, str, str, str]]:
    """(score, encoding name, reason, text) for every candidate that decodes ``data``."""
    scored: list[tuple[float, str, str, str]] = []
    memo: dict[tuple[str, tuple[str, ...]], tuple[float, str]] = {}
    for enc in encs:
        text = _decode(enc, data, cut)
        if text is None:
            continue
        key = (text, _ENCODING_LANGS.get(enc.name, ("und",)))
        found = memo.get(key)
        if found is None:
            found = memo[key] = _score(text, enc.name)
        s, lang = found
        s += _PRIOR.get(enc.name, _DEFAULT_PRIOR)
        reason = f"scored as {_LANGUAGE_NAMES.get(lang, lang)}"
        if bonus == enc.name:
            s += 3.0
            reason += "; Content-Type charset names it"
        scored.append((s, enc.name, reason, text))
    scored.sort(key=lambda t: -t[0])
    seen: dict[str, str] = {}
    for i, (s, name, reason, text) in enumerate(scored):
        twin = seen.setdefault(text, name)
        if twin != name:
            scored[i] = (s, name, f"{reason}; decodes the same as {twin}", text)
    return scored


def _to_guesses(scored: list[tuple[float, str, str, str]], mass: float) -> list[CharsetGuess]:
    """Confidence = the probability that decoding with this encoding gives the right text,
    so encodings that read these bytes the same (GBK and gb18030) share it."""
    if not scored:
        return []
    top = scored[0][0]
    weights = [math.exp((t[0] - top) / _TEMPERATURE) for t in scored]
    total = sum(weights)
    by_text: dict[str, float] = {}
    for t, w in zip(scored, weights, strict=True):
        by_text[t[3]] = by_text.get(t[3], 0.0) + w / total
    # best first: the most probable text, then the best-scoring encoding that reads so
    order = sorted(range(len(scored)), key=lambda i: (-by_text[scored[i][3]], i))
    return [
        CharsetGuess(name, round(min(mass * by_text[text], 1.0), 4), reason)
        for (_, name, reason, text) in (scored[i] for i in order)
    ]


def _label_text(label: object) -> str:
    return label.decode("ascii", "replace") if isinstance(label, bytes) else str(label)


def _check_probe(probe: object) -> tuple[str, bytes] | None:
    if probe is None:
        return None
    if (not isinstance(probe, tuple) or len(probe) != 2 or not isinstance(probe[0], str)
            or not probe[0]):
        raise PercentEncodingTypeError(
            "hints['probe'] must be a pair (character: str, submitted_bytes: bytes)"
        )
    return probe[0], _as_bytes(probe[1], "the probe's submitted bytes")


def _scaled(guesses: list[CharsetGuess], factor: float, prefix: str = "") -> list[CharsetGuess]:
    return [CharsetGuess(g.encoding, round(g.confidence * factor, 6), prefix + g.reason)
            for g in guesses]


def charset(
    data: bytes | bytearray | memoryview,
    *,
    candidates: Sequence[str] | None = None,
    hints: Mapping[str, object] | None = None,
) -> list[CharsetGuess]:
    """Guess the encoding of percent-decoded bytes; best first.

    ``candidates`` restricts the encodings tried (WHATWG labels; default
    :data:`DEFAULT_CANDIDATES`).  ``hints`` may hold ``"_charset_"`` (the value of a
    ``_charset_`` form field: decisive when it is a known label), ``"probe"`` (a pair
    ``(character, submitted_bytes)`` from a hidden field whose value is a known
    character: decisive) and ``"charset"`` (a Content-Type ``charset=`` parameter: a
    bonus only).  Candidates that cannot decode the bytes (fatal decoding) are left out;
    if none can, all are returned with confidence at most 0.05.

    A guess's ``confidence`` is the estimated probability that decoding with it gives
    the right text, so encodings that read these bytes identically (GBK and gb18030,
    windows-1252 and ISO-8859-15 for most Western text) share it.

    >>> charset("日本語".encode("utf-8"))[0].encoding
    'UTF-8'
    >>> charset(b"\\x93\\xfa\\x96\\x7b\\x8c\\xea")[0].encoding
    'Shift_JIS'
    >>> charset(b"\\xcf\\xf0\\xe8\\xe2\\xe5\\xf2")[0].encoding
    'windows-1251'
    >>> charset(b"\\xa4\\xa2", hints={"_charset_": "euc-jp"})[0].reason
    "_charset_ field says 'euc-jp'"
    """
    raw = _as_bytes(data)
    encs = _resolve(candidates)
    h = _check_hints(hints)
    cut = len(raw) > MAX_BYTES
    if cut:  # look at 4 KB, from a little before the first non-ASCII byte
        m = _NON_ASCII.search(raw)
        start = m.start() - 64 if m is not None and m.start() > MAX_BYTES - 64 else 0
        raw = raw[start : start + MAX_BYTES]
    hinted = _known(h["charset"]) if h.get("charset") is not None else None
    bonus = hinted.name if hinted is not None else None

    # 1. _charset_: decisive (the browser wrote in it the encoding it used).
    declared = _known(h["_charset_"]) if h.get("_charset_") is not None else None
    if declared is not None:
        ok = _decode(declared, raw, cut) is not None
        first = CharsetGuess(
            declared.name, 0.99 if ok else 0.6,
            f"_charset_ field says {_label_text(h['_charset_'])!r}"
            + ("" if ok else ", but the bytes do not decode cleanly in it"),
        )
        rest = _detect(raw, [e for e in encs if e != declared], cut, bonus)
        return [first, *_scaled(rest, 0.01)]

    # 2. probe: decisive among the candidates whose encoder gives the submitted bytes.
    probe = _check_probe(h.get("probe"))
    if probe is not None:
        char, submitted = probe
        matched = [e for e in encs if _probe_bytes(e, char) == submitted]
        if matched:
            note = f"probe field matched ({char!r} was sent as {submitted!r}); "
            if raw.isascii():  # every match reads the data the same: the prior orders them
                matched.sort(key=lambda e: (e.name != "UTF-8", -_PRIOR.get(e.name, -9.0)))
                inner = [CharsetGuess(e.name, 1.0, "the data are ASCII") for e in matched]
            else:
                inner = _detect(raw, matched, cut, bonus, ascii_rule=False)
            if not inner:  # the data do not decode in any of them: trust the probe
                inner = [CharsetGuess(e.name, round(1 / len(matched), 4),
                                      "the data do not decode cleanly in it")
                         for e in matched]
            others = _detect(raw, [e for e in encs if e not in matched], cut, bonus)
            return [*_scaled(inner, 0.99, note), *_scaled(others, 0.01)]

    # 3.-5.
    return _detect(raw, encs, cut, bonus) or _fallback(raw, encs)


def _detect(
    raw: bytes, encs: list[_enc.Encoding], cut: bool, bonus: str | None,
    ascii_rule: bool = True,
) -> list[CharsetGuess]:
    names = [e.name for e in encs]

    # 3. UTF-8 with multi-byte sequences.
    if "UTF-8" in names and not raw.isascii():
        try:
            raw.decode("utf-8")
            valid = True
        except UnicodeDecodeError as e:
            valid = cut and e.start >= len(raw) - 4 and e.reason == "unexpected end of data"
        if valid:
            multi = sum(1 for b in raw if b >= 0xC0)
            conf = 0.9 if multi == 1 else 0.97 if multi == 2 else 0.99
            rest = _ranked_guesses(raw, [e for e in encs if e.name != "UTF-8"], cut, bonus)
            return [CharsetGuess("UTF-8", conf, "valid UTF-8 with multi-byte sequences"),
                    *_to_guesses(rest, 1.0 - conf)]

    # 4. ASCII.
    if raw.isascii() and ascii_rule:
        out: list[CharsetGuess] = []
        if "ISO-2022-JP" in names and _ISO2022JP_ESC.search(raw):
            text = _decode(_enc.lookup("ISO-2022-JP"), raw, cut)
            if text is not None and not text.isascii():
                out.append(CharsetGuess("ISO-2022-JP", 0.99,
                                        "7-bit data with valid ISO-2022-JP escape sequences"))
        compatible = [n for n in names if n not in _NOT_ASCII_COMPATIBLE]
        if compatible:
            first = bonus if bonus in compatible else "UTF-8" if "UTF-8" in compatible \
                else compatible[0]
            out.append(CharsetGuess(
                first, 0.01 if out else 0.99,
                "pure ASCII: UTF-8 and every ASCII-compatible encoding decode it the same"
                + (" (the Content-Type charset names it)" if first == bonus else ""),
            ))
        if out:
            return out

    # 5. Score every candidate that decodes the bytes.
    return _to_guesses(_ranked_guesses(raw, encs, cut, bonus), 1.0)


def _fallback(raw: bytes, encs: list[_enc.Encoding]) -> list[CharsetGuess]:
    """No candidate decodes cleanly: rank by fewest replacement characters, then score."""
    ranked = []
    for enc in encs:
        text = enc.decode(raw, "replace")
        bad = text.count("\ufffd")
        ranked.append((-bad, _score(text, enc.name)[0], enc.name, bad))
    ranked.sort(reverse=True)
    return [
        CharsetGuess(name, round(0.05 / (1 + i), 4),
                     f"no candidate decodes without errors; {bad} replacement character(s)")
        for i, (_, _, name, bad) in enumerate(ranked)
    ]


# ---------------------------------------------------------------------------------------
# Forms


def choose_form_encoding(
    raw_pairs: Sequence[tuple[bytes, bytes]],
    *,
    probe: tuple[str, str] | None = None,
    content_type_charset: str | None = None,
    candidates: Sequence[str] | None = None,
    echo_fields: Sequence[str] | None = None,
) -> CharsetGuess:
    """Choose the encoding of a urlencoded form's percent-decoded names and values.

    In order: a ``_charset_`` field (any case) naming a known label, as HTML's hidden
    ``_charset_`` field sends it; a probe field ``probe=(field_name, expected_char)``
    whose submitted bytes are that character in a candidate encoding; a field that
    echoes the input charset (:data:`ECHO_CHARSET_FIELDS`, e.g. ``ie=Shift_JIS``) when
    the data decode in it; then :func:`charset` over every non-ASCII name and value
    joined with newlines (ISO-2022-JP's escape sequences count as non-ASCII), with
    ``content_type_charset`` as a hint.  The reason says which rule decided; fields that
    read differently on their own lower the confidence and add a finding, and so does
    a value cut inside a UTF-8 sequence.

    >>> choose_form_encoding([(b"_charset_", b"Shift_JIS"), (b"q", b"\\x83e")]).encoding
    'Shift_JIS'
    >>> g = choose_form_encoding([(b"p", b"\\x81E"), (b"q", b"\\x83e")], probe=("p", "・"))
    >>> g.encoding, g.reason[:20]
    ('Shift_JIS', "probe field 'p' matc")
    >>> choose_form_encoding([(b"q", "привет".encode("koi8-r"))]).encoding
    'KOI8-R'
    >>> choose_form_encoding([(b"ie", b"EUC-JP"), (b"q", b"\\xa4\\xa2")]).reason
    "field 'ie' echoes the input charset: 'EUC-JP'"
    """
    return form_encodings(
        raw_pairs, probe=probe, content_type_charset=content_type_charset,
        candidates=candidates, echo_fields=echo_fields, per_field=False,
    )[0]


def _utf8_cut(value: bytes) -> int | None:
    """Where a value that is valid UTF-8 but for a sequence cut at its end is cut."""
    try:
        value.decode("utf-8")
        return None
    except UnicodeDecodeError as e:
        if e.reason == "unexpected end of data" and e.end == len(value):
            try:
                value[: e.start].decode("utf-8")
            except UnicodeDecodeError:
                return None
            return e.start
        return None


def _needs_detection(b: bytes) -> bool:
    return not b.isascii() or b"\x1b" in b


def _reads(enc_name: str, b: bytes) -> str:
    return _enc.lookup(enc_name).decode(b, "replace")


_SURE = 0.6  # a field guess this confident on its own can contradict the whole form
_MAX_FIELD_CHECK = 64  # fields checked one by one for disagreement (linear cost bound)


def form_encodings(
    raw_pairs: Sequence[tuple[bytes, bytes]],
    *,
    probe: tuple[str, str] | None = None,
    content_type_charset: str | None = None,
    candidates: Sequence[str] | None = None,
    echo_fields: Sequence[str] | None = None,
    per_field: bool = False,
) -> tuple[CharsetGuess, list[CharsetGuess]]:
    """The whole-form guess of :func:`choose_form_encoding`, and with ``per_field`` one
    guess per (name, value) pair (a pair that is ASCII gets the whole-form guess)."""
    if isinstance(raw_pairs, (str, bytes)) or not isinstance(raw_pairs, Sequence):
        raise PercentEncodingTypeError(
            f"raw_pairs must be a list of (bytes, bytes), not {type(raw_pairs).__name__}"
        )
    pairs: list[tuple[bytes, bytes]] = []
    for item in raw_pairs:
        if not isinstance(item, tuple) or len(item) != 2:
            raise PercentEncodingTypeError("raw_pairs must hold (name, value) pairs of bytes")
        pairs.append((_as_bytes(item[0], "a name"), _as_bytes(item[1], "a value")))
    if content_type_charset is not None and not isinstance(content_type_charset, str):
        raise PercentEncodingTypeError("content_type_charset must be a str label")
    if probe is not None and (not isinstance(probe, tuple) or len(probe) != 2
                              or not all(isinstance(p, str) for p in probe) or not probe[1]):
        raise PercentEncodingTypeError("probe must be a pair (field_name, expected_char)")
    if echo_fields is None:
        echo = ECHO_CHARSET_FIELDS
    elif isinstance(echo_fields, str) or not all(isinstance(f, str) for f in echo_fields):
        raise PercentEncodingTypeError("echo_fields must be a sequence of field names (str)")
    else:
        echo = tuple(echo_fields)

    whole = _whole_form(pairs, probe, content_type_charset, candidates, echo)
    if not per_field:
        return whole, []
    out: list[CharsetGuess] = []
    for name, value in pairs:
        if not (_needs_detection(name) or _needs_detection(value)):
            out.append(CharsetGuess(whole.encoding, whole.confidence,
                                    "ASCII field: read with the whole form's encoding"))
            continue
        out.append(_field_guess(name, value, candidates, content_type_charset))
    return whole, out


def _field_guess(
    name: bytes, value: bytes, candidates: Sequence[str] | None, ct: str | None
) -> CharsetGuess:
    hints = {"charset": ct} if ct is not None else {}
    cut = _utf8_cut(value)
    if cut is not None and not name.isascii():
        cut = None if _utf8_cut(name) is not None else cut
    if cut is not None:
        head = value[:cut]
        if not head.isascii() and not (b"\n".join((name, head))).isascii():
            g = charset(b"\n".join((name, head)), candidates=candidates, hints=hints)[0]
            if g.encoding == "UTF-8":
                return CharsetGuess("UTF-8", round(g.confidence * 0.95, 4),
                                    f"{g.reason} (the value is cut inside a UTF-8 sequence)",
                                    (_cut_finding(name, value, cut),))
    g = charset(b"\n".join((name, value)), candidates=candidates, hints=hints)[0]
    return CharsetGuess(g.encoding, g.confidence, g.reason)


def _cut_finding(name: bytes, value: bytes, cut: int) -> str:
    return (f"the value of {_label_text(name)!r} ends inside a UTF-8 sequence "
            f"({len(value) - cut} byte(s) of it): it was probably cut off at a length "
            "limit; the incomplete character decodes as U+FFFD")


def _whole_form(
    pairs: list[tuple[bytes, bytes]],
    probe: tuple[str, str] | None,
    content_type_charset: str | None,
    candidates: Sequence[str] | None,
    echo: tuple[str, ...],
) -> CharsetGuess:
    # HTML "constructing the entry list" (and the pre-2016 URL Standard's _charset_ flag).
    for name, value in pairs:
        if name.lower() == b"_charset_":
            enc = _known(value.strip())
            if enc is not None:
                return CharsetGuess(enc.name, 0.99,
                                    f"_charset_ field says {_label_text(value)!r}")

    fields: list[bytes] = []
    owners: list[bytes] = []  # the field name each of `fields` belongs to
    for name, value in pairs:
        for part in (name, value):
            if _needs_detection(part):
                fields.append(part)
                owners.append(name)
    n = len(fields)
    hints: dict[str, object] = {}
    if content_type_charset is not None:
        hints["charset"] = content_type_charset
    notes = ""
    if probe is not None:
        body = b"\n".join(fields)
        pname = probe[0].encode("utf-8")
        submitted = next((v for k, v in pairs if k == pname), None)
        if submitted is None:
            notes = f" (no probe field {probe[0]!r} in the form)"
        else:
            encs = _resolve(candidates)
            matched = {e.name for e in encs if _probe_bytes(e, probe[1]) == submitted}
            if matched:
                g = charset(body, candidates=candidates,
                            hints={**hints, "probe": (probe[1], submitted)})[0]
                return CharsetGuess(g.encoding, g.confidence,
                                    f"probe field {probe[0]!r} {g.reason[len('probe field '):]}")
            notes = f" (probe field {probe[0]!r} matched no candidate)"

    # Fields that echo the page's charset (ie=UTF-8 and the like): trusted when every
    # name and value decodes in the named encoding.
    wanted = {f.lower().encode("utf-8") for f in echo}
    for name, value in pairs:
        if name.lower() in wanted and value.strip().isascii():
            enc = _known(value.strip())
            if enc is None:
                continue
            if all(_decode(enc, f, False) is not None for f in fields):
                return CharsetGuess(enc.name, 0.95,
                                    f"field {_label_text(name)!r} echoes the input charset: "
                                    f"{_label_text(value.strip())!r}{notes}")
            notes += (f" (field {_label_text(name)!r} says {_label_text(value.strip())!r}, "
                      "but the data do not decode in it)")

    if not n:
        declared = _known(content_type_charset) if content_type_charset else None
        if declared is not None and declared.name not in _NOT_ASCII_COMPATIBLE:
            return CharsetGuess(declared.name, 0.99,
                                "every name and value is ASCII; the Content-Type charset "
                                f"says {declared.name}{notes}")
        return CharsetGuess("UTF-8", 0.99,
                            "every name and value is ASCII: UTF-8 and every "
                            f"ASCII-compatible encoding decode them the same{notes}")

    findings: list[str] = []
    # A value cut inside a UTF-8 sequence (a length-limited log field): judge the
    # data without the broken tails; if that is UTF-8, the form is UTF-8.
    cuts = {i: c for i, f in enumerate(fields) if (c := _utf8_cut(f)) is not None}
    g = charset(b"\n".join(fields), candidates=candidates, hints=hints)[0]
    if cuts and g.encoding != "UTF-8":
        trimmed = [f[: cuts[i]] if i in cuts else f for i, f in enumerate(fields)]
        body = b"\n".join(trimmed)
        if not body.isascii():
            t = charset(body, candidates=candidates, hints=hints)[0]
            if t.encoding == "UTF-8":
                for i in cuts:
                    findings.append(_cut_finding(owners[i], fields[i], cuts[i]))
                g = CharsetGuess("UTF-8", round(t.confidence * 0.95, 4), t.reason)

    conf, reason = g.confidence, f"detected from {n} non-ASCII name(s)/value(s): {g.reason}"
    enc_name = g.encoding
    # Fields that read differently on their own: the form was put together from
    # several sources (or one guess is wrong).  Say so rather than be confidently wrong.
    own = [(name, value) for name, value in pairs
           if _needs_detection(name) or _needs_detection(value)][:_MAX_FIELD_CHECK]
    if len(own) >= 2:
        guesses = [_field_guess(k, v, candidates, content_type_charset) for k, v in own]
        options = [enc_name, *dict.fromkeys(x.encoding for x in guesses)]

        def agrees(e: str, k: bytes, v: bytes, x: CharsetGuess) -> bool:
            # A field too short to be sure of on its own (its own guess below
            # _SURE) does not contradict the form (measured in bench/README.md).
            return x.confidence < _SURE or _reads(e, k + b"\n" + v) == _reads(x.encoding,
                                                                               k + b"\n" + v)

        def agreeing(e: str) -> int:
            return sum(1 for (k, v), x in zip(own, guesses, strict=True) if agrees(e, k, v, x))

        best = max(options, key=agreeing)  # max keeps the first on ties: the whole guess
        agree = agreeing(best)
        if agree < len(own):
            others = ", ".join(
                f"{_label_text(k)!r} reads as {x.encoding}"
                for (k, v), x in zip(own, guesses, strict=True)
                if not agrees(best, k, v, x)
            )
            findings.append(
                f"fields disagree: {agree} of {len(own)} non-ASCII field(s) read the same "
                f"in {best}, but {others}; the form may mix charsets "
                "(parse with per_field=True)"
            )
            if best != enc_name:
                reason = (f"the encoding most fields agree on ({agree} of {len(own)}); "
                          f"the joined data scored {enc_name}")
                enc_name = best
            conf = round(min(conf, 0.9) * agree / len(own), 4)
    declared = _known(content_type_charset) if content_type_charset else None
    if declared is not None:
        if declared.name == enc_name:
            if "Content-Type charset" not in reason:
                reason += "; the Content-Type charset says so too"
        elif _decode(declared, b"\n".join(fields), False) is None:
            findings.append(f"the Content-Type header says charset={declared.name}, "
                            "but the data do not decode in it")
        elif _reads(declared.name, b"\n".join(fields)) != _reads(enc_name, b"\n".join(fields)):
            findings.append(f"the Content-Type header says charset={declared.name}, "
                            f"but the data read better as {enc_name}")
    return CharsetGuess(enc_name, conf, reason + notes, tuple(findings))
