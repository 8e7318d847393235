"""A small JSON Schema checker: the few keywords the progress document's schema uses.

The progress document (:mod:`calijack.progress`) is checked in two places: here, in Python
(the live sandbox, ``python -m calijack.progress check``), and in the reader's browser by its
twin in ``calijack/widgets/progress.js``, on pages that have no Python. Both read the same
schema, a plain JSON Schema (draft 2020-12) built by :mod:`calijack.progress`, and both
understand exactly these keywords, with the same meaning as the standard's:

``type`` (one name or a list: object, array, string, integer, boolean, null), ``enum``,
``properties``, ``required``, ``additionalProperties`` (false or a schema),
``propertyNames``, ``maxProperties``, ``items``, ``maxItems``, ``minItems``, ``minimum``,
``maximum``, ``minLength``, ``maxLength`` (in characters, i.e. code points), ``pattern`` and
``anyOf``.

Every ``pattern`` is anchored, ``^…$``, and written in the part of regular expressions that
Python and JavaScript read alike. The tests check that this checker, its JavaScript twin and
the reference implementation (PyPI ``jsonschema``) give the same verdict on the same
documents. Nothing here recurses deeper than the schema itself, so a hostile document cannot
exhaust the stack: what is not described by the schema is refused before it is entered.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

__all__ = ["SchemaError", "check", "KEYWORDS"]

KEYWORDS = frozenset({"type", "enum", "properties", "required", "additionalProperties", "propertyNames",
                      "maxProperties", "items", "maxItems", "minItems", "minimum", "maximum", "minLength",
                      "maxLength", "pattern", "anyOf", "description", "$schema", "title", "$comment"})


class SchemaError(ValueError):
    """A value that does not fit the schema: ``where`` (a path such as ``deals → 3 → points``) and ``what``."""

    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}" if where else what)
        self.where, self.what = where, what


@lru_cache(maxsize=None)
def _pattern(text: str) -> re.Pattern:
    # "$" at the end means the end of the text, as in JavaScript (Python's "$" also matches
    # before a final newline).
    if not (text.startswith("^") and text.endswith("$")):
        raise ValueError(f"a pattern must be anchored ^…$: {text!r}")
    return re.compile(text[:-1] + r"\Z")


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        # JSON has one kind of number: 2.0 is the integer 2 (as the standard says), and
        # NaN and the infinities are not JSON at all.
        return "integer" if value.is_integer() else "number" if value == value and abs(value) != float("inf") else "nan"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


_NAMES = {"object": "an object", "array": "a list", "string": "a string", "integer": "a whole number",
          "boolean": "true or false", "null": "null", "number": "a number"}


def _join(where: str, key: Any) -> str:
    return f"{where} → {key}" if where else str(key)


def _short(value: Any) -> str:
    # As JavaScript's twin writes it: a string in double quotes, anything else as JSON.
    text = '"' + value + '"' if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def check(value: Any, schema: dict, where: str = "") -> None:
    """Raise :class:`SchemaError` at the first part of ``value`` that ``schema`` refuses."""
    kind = _type_of(value)
    wanted = schema.get("type")
    if wanted is not None:
        allowed = [wanted] if isinstance(wanted, str) else wanted
        if kind not in allowed:
            raise SchemaError(where, "must be " + " or ".join(_NAMES[t] for t in allowed))
    if "enum" in schema and not any(_type_of(value) == _type_of(option) and value == option
                                    for option in schema["enum"]):
        raise SchemaError(where, "must be one of " + ", ".join(_short(o) for o in schema["enum"]))
    if "anyOf" in schema:
        errors = []
        for option in schema["anyOf"]:
            try:
                check(value, option, where)
                break
            except SchemaError as error:
                errors.append(error)
        else:
            # The option that got furthest into the value says most about what is wrong.
            raise max(errors, key=lambda e: e.where.count(" → ") + bool(e.where))
    if kind == "object":
        _check_object(value, schema, where)
    elif kind == "array":
        if len(value) > schema.get("maxItems", len(value)):
            raise SchemaError(where, f"may hold at most {schema['maxItems']} items")
        if len(value) < schema.get("minItems", 0):
            raise SchemaError(where, f"must hold at least {schema['minItems']} items")
        if "items" in schema:
            for k, item in enumerate(value):
                check(item, schema["items"], _join(where, k))
    elif kind == "string":
        if len(value) > schema.get("maxLength", len(value)):
            raise SchemaError(where, f"may be at most {schema['maxLength']} characters long")
        if len(value) < schema.get("minLength", 0):
            raise SchemaError(where, f"must be at least {schema['minLength']} characters long")
        if "pattern" in schema and not _pattern(schema["pattern"]).match(value):
            raise SchemaError(where, f"{_short(value)} is not of the expected form")
    elif kind == "integer":
        if "minimum" in schema and value < schema["minimum"]:
            raise SchemaError(where, f"must be at least {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            raise SchemaError(where, f"must be at most {schema['maximum']}")


def _check_object(value: dict, schema: dict, where: str) -> None:
    if len(value) > schema.get("maxProperties", len(value)):
        raise SchemaError(where, f"may hold at most {schema['maxProperties']} entries")
    for key in schema.get("required", ()):
        if key not in value:
            raise SchemaError(where, f"has no {_short(key)}")
    properties = schema.get("properties", {})
    names = schema.get("propertyNames")
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        if names is not None:
            check(key, names, _join(where, _short(key)))
        if key in properties:
            check(item, properties[key], _join(where, key))
        elif extra is False:
            raise SchemaError(where, f"has an unknown entry {_short(key)}")
        elif isinstance(extra, dict):
            check(item, extra, _join(where, key))
