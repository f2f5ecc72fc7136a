"""Reading fields of spmma's JSON records, shared by make_results.py and decode_section.py."""


def dig(obj, *keys):
    """obj[k0][k1]... or None where a level is missing or not an object."""
    for k in keys:
        if not isinstance(obj, dict) or k not in obj:
            return None
        obj = obj[k]
    return obj


def number(v):
    """A finite number, or None (records write NaN/Inf as strings)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return float(v) if v == v and abs(v) != float("inf") else None
