"""A cheap document language hint: CJK script ratio, else stopword markers (en de fr es it pt).

The hint feeds filters (``lang``) and model choices, so a wrong answer costs more than none:
``detect_language`` returns None unless one language clearly wins.
"""

from __future__ import annotations

import re

__all__ = ["SUPPORTED_LANGUAGES", "detect_language"]

SUPPORTED_LANGUAGES = ("zh", "ja", "ko", "en", "de", "fr", "es", "it", "pt")

#: Characters looked at: the start of a text is representative enough and keeps this O(1).
_SAMPLE_CHARS = 1500
_CJK_RATIO = 0.10
_MIN_MARKERS = 2

_CJK = re.compile(
    r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf"
    r"\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f\U00020000-\U0002fa1f]"
)
_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
# Code is mostly identifiers and commands, not the document's language.
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.DOTALL)

_STOPWORDS: dict[str, str] = {
    "en": "the and of to is that with for this are be it from you your or by which have not can "
    "will an was were has would should there their they what when how if into about these those",
    "de": "der die das und ist nicht mit ein eine einen zu von den dem auf für sich auch werden "
    "wird oder im bei dass sie es ich wir ihr sind wie aus nach über kann können diese dieser "
    "zum zur einem einer des vom datei verzeichnis",
    "fr": "le les et est des une du pour dans pas qui sur avec ce vous sont au aux ou par cette "
    "ces leur nous il elle mais être fichier répertoire avez affiche",
    "es": "el los las y es una para con por su como más pero al lo son está archivo directorio "
    "puede ejemplo usar sus muestra del vea información sesión salida datos debe",
    "it": "il gli di è che della per una non con sono nel alla dei delle questo come anche degli "
    "nella sul dal cartella al del mostra tutti tutte più maggiori informazioni elenca "
    "avvia esegui stampa utente",
    "pt": "os do da dos das um uma para com não em no na por mais como você ao à são seu sua "
    "arquivo ficheiro diretório exibir mostrar é veja também exibe obtém documentação "
    "informações",
}
# Languages we do not report, listed so that their texts are not mistaken for one we do.
_DECOYS: dict[str, str] = {
    "ro": "și în sau pentru din fișier fișierele fișierul mai care cu unui unei să dintr",
    "nl": "het een van niet voor zijn worden deze bestand naar ook bij wordt geef",
    "pl": "się nie jest dla oraz lub plik pliku plików katalog katalogu wyświetl",
    "ca": "els amb fitxer aquest també pel mostra",
    "id": "dan yang untuk dengan ini dari atau berkas tidak",
    "tr": "bir ve için ile bu dosya veya",
    "nordic": "och att för med som og til fil eller af på den det ett av filer",
    "cs": "se na je pro nebo soubor souboru adresář",
}
_DECOY_LANGS = frozenset(_DECOYS)


def _build_markers() -> dict[str, str]:
    """word -> language, keeping only words that mark exactly one language."""
    owners: dict[str, set[str]] = {}
    for lang, words in (*_STOPWORDS.items(), *_DECOYS.items()):
        for word in words.split():
            owners.setdefault(word, set()).add(lang)
    return {word: langs.pop() for word, langs in owners.items() if len(langs) == 1}


_MARKERS = _build_markers()


def detect_language(text: str) -> str | None:
    """``zh``/``ja``/``ko`` when CJK script is at least 10 % of the non-space characters, else
    ``en``, ``de``, ``fr``, ``es``, ``it`` or ``pt`` when that language's marker words clearly
    dominate, else None (unknown, mixed or too short). Looks at the first 1,500 characters."""
    sample = text[:_SAMPLE_CHARS]
    if "`" in sample:
        sample = _CODE.sub(" ", sample)
    if not sample.isascii() and _CJK.search(sample) is not None:
        found = _cjk(sample)
        if found is not None:
            return found
    counts: dict[str, int] = {}
    for lang in filter(None, map(_MARKERS.get, sample.lower().split())):
        counts[lang] = counts.get(lang, 0) + 1
    if not counts:
        return None
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    best, hits = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0
    if best not in _DECOY_LANGS and hits >= _MIN_MARKERS and hits >= 2 * runner_up + 1:
        return best
    return None


def _cjk(sample: str) -> str | None:
    cjk = len(_CJK.findall(sample))
    if cjk < _CJK_RATIO * len("".join(sample.split())):
        return None
    hangul = len(_HANGUL.findall(sample))
    if hangul * 2 >= cjk:
        return "ko"
    kana = len(_KANA.findall(sample))
    if kana > 0 and kana * 20 >= cjk:
        return "ja"
    return "zh"
