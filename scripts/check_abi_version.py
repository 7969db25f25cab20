#!/usr/bin/env python3
"""A change to include/pasta/abi.h's declarations needs a PASTA_ABI_VERSION bump.

The runtime accepts only modules built against its own version (the
__pasta_abi_v<N> symbol, the descriptors' version field): a changed layout
without a bump lets an older runtime read a newer module wrongly. The file
says so, and two branches of one session still changed it without a bump.
include/pasta/abi_version.txt records the version and a hash of the
declarations (comments, whitespace and the version's own line left out, so
prose edits need no bump). The ctest test `abi-version` runs this check;
`--record` writes the record, and only after a bump.

usage: check_abi_version.py SOURCE_DIR [--record]
"""
import hashlib
import re
import sys

TOKENS = re.compile(r'"(?:\\.|[^"\\])*"|/\*.*?\*/|//[^\n]*', re.S)
VERSION = re.compile(r'^#define PASTA_ABI_VERSION_NUMBER (\d+)$', re.M)


def declarations(text):
    """abi.h without comments, whitespace and the version number's line."""
    kept = TOKENS.sub(lambda m: m.group(0) if m.group(0)[0] == '"' else ' ',
                      text)
    kept = VERSION.sub('', kept)
    return re.sub(r'\s+', '', kept)


def read_header(source):
    with open(f'{source}/include/pasta/abi.h', encoding='utf-8') as f:
        text = f.read()
    found = VERSION.search(text)
    if not found:
        sys.exit('abi-version: no "#define PASTA_ABI_VERSION_NUMBER N" in '
                 'include/pasta/abi.h')
    digest = hashlib.sha256(declarations(text).encode()).hexdigest()
    return int(found.group(1)), digest


def read_record(path):
    try:
        with open(path, encoding='utf-8') as f:
            fields = f.read().split()
        return int(fields[0]), fields[1]
    except (OSError, ValueError, IndexError):
        sys.exit(f'abi-version: cannot read {path} ("VERSION SHA256"): '
                 'run scripts/check_abi_version.py . --record')


def main(argv):
    if len(argv) not in (2, 3) or (len(argv) == 3 and argv[2] != '--record'):
        sys.exit('usage: check_abi_version.py SOURCE_DIR [--record]')
    source = argv[1]
    record_path = f'{source}/include/pasta/abi_version.txt'
    version, digest = read_header(source)
    recorded_version, recorded_digest = read_record(record_path)
    if len(argv) == 3:
        if digest != recorded_digest and version == recorded_version:
            sys.exit(f'abi-version: not recorded: the declarations changed, '
                     f'bump PASTA_ABI_VERSION_NUMBER ({version}) first')
        with open(record_path, 'w', encoding='utf-8') as f:
            f.write(f'{version} {digest}\n')
        print(f'abi-version: recorded version {version}')
        return 0
    if digest == recorded_digest and version == recorded_version:
        print(f'ok   abi.h declarations match the record of version {version}')
        return 0
    if version == recorded_version:
        print(f'FAIL: include/pasta/abi.h changed but PASTA_ABI_VERSION_NUMBER '
              f'is still {version}: bump it, then run '
              f'scripts/check_abi_version.py . --record')
    else:
        print(f'FAIL: PASTA_ABI_VERSION_NUMBER is {version}, the record says '
              f'{recorded_version}: run scripts/check_abi_version.py . --record')
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
