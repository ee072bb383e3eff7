#!/usr/bin/env python3
"""Turns a libgphoto2 camera summary (camlibs/ptp2/cameras/nikon-*.txt: `gphoto2 --summary` of a real body) into
rawcap's property-facts lines: one property per line, in the summary's order (DeviceInfo's properties, then the
vendor list), `CODE TYPE ACCESS FORM ... = CURRENT`:

    0x5001 u8 r range 1 100 1 = 60
    0x5004 u8 rw enum 0 1 2 = 6
    0x5003 str rw enum '8256x5504' '4128x2752' = '4128x2752'
    0x501e str r none = ''

Personal strings (Artist, Copyright) are blanked. Usage: nikon-summary-to-facts.py SUMMARY.txt
"""
import re
import sys

TYPES = {0x1: 'i8', 0x2: 'u8', 0x3: 'i16', 0x4: 'u16', 0x5: 'i32', 0x6: 'u32', 0x7: 'i64', 0x8: 'u64', 0xffff: 'str'}
BLANKED = {0x501e, 0x501f, 0xd072, 0xd073}
LINE = re.compile(r"^(?:.*?\((0x[0-9a-f]{4})\)|Property (0x[0-9a-f]{4})):\((read only|readwrite)\) \(type=(0x[0-9a-f]+)\) ?(.*)$")


def quote(text):
    if "'" in text:
        raise SystemExit(f"a string with a quote: {text!r}")
    return f"'{text}'"


def main(path):
    body = open(path, encoding='utf-8', errors='strict').read().split('Device Property Summary:', 1)[1]
    joined = []
    for line in body.split('\n'):
        if line.startswith('\t') and joined:
            joined[-1] += ' ' + line.strip()
        elif line.strip():
            joined.append(line)
    for line in joined:
        match = LINE.match(line)
        if not match:
            raise SystemExit(f"cannot read: {line}")
        code = int(match.group(1) or match.group(2), 16)
        access = 'rw' if match.group(3) == 'readwrite' else 'r'
        kind = TYPES[int(match.group(4), 16)]
        rest = match.group(5)
        if rest.startswith('Range ['):
            r = re.match(r"Range \[(-?\d+) - (-?\d+), step (-?\d+)\] value: (.*)$", rest)
            form, value = f"range {r.group(1)} {r.group(2)} {r.group(3)}", r.group(4)
        elif rest.startswith('Enumeration ['):
            r = re.match(r"Enumeration \[(.*?)\] value: (.*)$", rest)
            if kind == 'str':
                items = [quote(item) for item in re.findall(r"'([^']*)'", r.group(1))]
            else:
                items = [item.strip() for item in r.group(1).split(',') if item.strip()]
            form, value = 'enum ' + ' '.join(items), r.group(2)
        else:
            form, value = 'none', rest
        if kind == 'str':
            found = re.search(r"'([^']*)'\s*$", value)
            current = quote('' if code in BLANKED else (found.group(1) if found else ''))
        else:
            found = re.search(r"\((-?\d+)\)\s*$", value) or re.match(r"\s*(-?\d+)", value)
            if not found:
                raise SystemExit(f"no value: {line}")
            current = found.group(1)
        print(f"0x{code:04x} {kind} {access} {form} = {current}")


if __name__ == '__main__':
    main(sys.argv[1])
