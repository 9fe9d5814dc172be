"""The Python baseline of the scale benchmark (BENCHMARKS.md): `json.loads` per line, as a script
of the frameworks' own language would read a rollout file; it counts what bench/baseline.mjs counts
and prints the same JSON. On exit it writes its peak RSS and CPU time to stderr the way
bench/maxrss.cjs does for a Node process, so bench/measure.mjs reads both alike.

    /usr/bin/python3 bench/baseline.py <file>...   (files one after another)
"""
import json
import os
import sys


def peak_kb():
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith('VmHWM:'):
                return int(line.split()[1])
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main(paths):
    records = aborted = 0
    for path in paths:
        with open(path, 'rb') as f:
            for line in f:
                sample = json.loads(line)
                records += 1
                if isinstance(sample, dict) and sample.get('status') == 'aborted':
                    aborted += 1
    sys.stdout.write(json.dumps({'records': records, 'aborted': aborted}, separators=(',', ':')) + '\n')
    t = os.times()
    sys.stderr.write(f'\nRL_MAXRSS_KB {peak_kb()}\nRL_CPU_US {round((t.user + t.system) * 1e6)}\n')


if __name__ == '__main__':
    main(sys.argv[1:])
