#!/usr/bin/env python3
"""Turns a libgphoto2 camera summary (camlibs/ptp2/cameras/*.txt: a real body's `gphoto2 --summary`, often with the
debug output around it) into rawcap's real-body facts, as the `*Facts.swift` files of the emulator hold them.

    summary-to-facts.py deviceinfo SUMMARY.txt [N]   the Nth (1-based, default 1) "Device info:" block's lists:
                                                     operations, events, properties (hex, in the block's order)
    summary-to-facts.py properties SUMMARY.txt       the "Device Property Summary:" lines as facts lines,
                                                     `CODE TYPE ACCESS FORM ... = CURRENT` (see
                                                     nikon-summary-to-facts.py); a property the body refused to
                                                     describe ("error 200a on query") or described with no type
                                                     (type=0x0) is left out and named on stderr

Only facts are taken (codes, types, forms, values); none of the summary's text is kept.
"""
import re
import sys

TYPES = {0x1: 'i8', 0x2: 'u8', 0x3: 'i16', 0x4: 'u16', 0x5: 'i32', 0x6: 'u32', 0x7: 'i64', 0x8: 'u64', 0xffff: 'str'}
LINE = re.compile(r"^(?:.*?\((0x[0-9a-f]{4})\)|Property (0x[0-9a-f]{4})):\((read only|readwrite)\) \(type=(0x[0-9a-f]+)\) ?(.*)$")
REFUSED = re.compile(r"^(?:.*?\((0x[0-9a-f]{4})\)|Property (0x[0-9a-f]{4})): error ([0-9a-f]{4}) on query\.$")


def quote(text):
    if "'" in text:
        raise SystemExit(f"a string with a quote: {text!r}")
    return f"'{text}'"


def deviceinfo(path, which):
    lines = open(path, encoding='utf-8').read().split('\n')
    starts = [i for i, line in enumerate(lines) if line.strip() == 'Device info:']
    block = lines[starts[which - 1]:]
    lists, current = {}, None
    for line in block[1:]:
        text = line.strip()
        if text in ('Supported operations:', 'Events Supported:', 'Device Properties Supported:'):
            current = text.split()[0].lower()
            lists[current] = []
        elif current and re.match(r'^0x[0-9a-f]{4}\b', text):
            lists[current].append(text[:6])
        elif current and (text or (current == 'device' and lists['device'])):
            break
    for name in ('supported', 'events', 'device'):
        print(name, ' '.join(lists.get(name, [])))


def properties(path):
    body = open(path, encoding='utf-8', errors='strict').read().split('Device Property Summary:', 1)[1]
    body = body.split('\n\n', 1)[0]
    joined = []
    for line in body.split('\n'):
        if line.startswith('\t') and joined:
            joined[-1] += ' ' + line.strip()
        elif line.strip():
            joined.append(line)
    for line in joined:
        refused = REFUSED.match(line)
        if refused:
            print(f"refused 0x{int(refused.group(1) or refused.group(2), 16):04x} (error {refused.group(3)})",
                  file=sys.stderr)
            continue
        match = LINE.match(line)
        if not match:
            raise SystemExit(f"cannot read: {line}")
        code = int(match.group(1) or match.group(2), 16)
        if int(match.group(4), 16) == 0:
            print(f"no type 0x{code:04x}", file=sys.stderr)
            continue
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
            current = quote(found.group(1) if found else '')
        else:
            found = re.search(r"\((-?\d+)\)\s*$", value) or re.match(r"\s*(-?\d+)", value)
            if not found:
                raise SystemExit(f"no value: {line}")
            current = found.group(1)
        print(f"0x{code:04x} {kind} {access} {form} = {current}")


if __name__ == '__main__':
    if sys.argv[1] == 'deviceinfo':
        deviceinfo(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    else:
        properties(sys.argv[2])
