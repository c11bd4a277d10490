# Issue 26 item 1: every page of docs/ with three sections or more opens
# with a table of contents, and every link in it leads to a heading of
# the page (GitHub's anchors: lower case, punctuation dropped, spaces to
# hyphens). A section renamed without its contents line fails here.
. "$HOOKSHIM_TOP/tests/lib.sh"
out=$(python3 - "$HOOKSHIM_TOP"/docs/*.md <<'PY'
import re, sys, os
def anchor(t):
    t = re.sub(r'[^\w\- ]', '', t.strip().lower())
    return t.replace(' ', '-')
for p in sys.argv[1:]:
    name = os.path.basename(p)
    text = open(p).read()
    heads, fence = [], False
    for l in text.split('\n'):
        if l.startswith('```'):
            fence = not fence
        elif not fence and l.startswith('## '):
            heads.append(l[3:])
    if len(heads) < 3:
        continue
    m = re.search(r'^Contents:(.*?)(?:\n\n)', text, re.M | re.S)
    if not m:
        print('FAIL %s: %d sections, no "Contents:" line' % (name, len(heads)))
        continue
    links = re.findall(r'\]\(#([^)]+)\)', m.group(1))
    have = {anchor(h) for h in heads}
    bad = [l for l in links if l not in have]
    missing = [h for h in heads if anchor(h) not in links]
    if bad or missing:
        print('FAIL %s: contents links to %s; sections not listed: %s' % (name, bad, missing))
    else:
        print('PASS %s: contents lists its %d sections' % (name, len(heads)))
PY
)
echo "$out"
