import sys, re, statistics as st, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r'(\w+) (\d+) (\w+) np (\d+) block +(\d+) B: +([\d.]+)', line)
    if m: d[(m.group(1), int(m.group(5)))].append(float(m.group(6)))
sizes = sorted({k[1] for k in d})
print("%8s %22s %22s %22s %10s %10s" % ("block", "old", "new", "tuned", "new/old", "new/tuned"))
for s in sizes:
    o, n, t = d[('old', s)], d[('new', s)], d[('tuned', s)]
    f = lambda v: "%.2f [%.2f-%.2f]" % (st.median(v), min(v), max(v))
    print("%8d %22s %22s %22s %10.2f %10.2f" % (s, f(o), f(n), f(t), st.median(n)/st.median(o), st.median(n)/st.median(t)))
